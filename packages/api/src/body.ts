/** Reading a JSON request body: a size limit first, then one clear error for anything not JSON. */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { shownInput, ReelayError } from "@reelay/core/domain";

export function jsonBodyLimit(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ReelayError(
        "payload_too_large",
        `The request body is larger than ${maxBytes} bytes.`,
        { status: 413 },
      );
    },
  });
}

/**
 * The body text as parsed JSON. The Content-Type is not insisted on: a client that forgot the header but
 * sent JSON is served; anything that does not parse is `invalid_json`.
 */
export function parseJson(text: string): unknown {
  if (text.trim() === "") {
    throw new ReelayError(
      "invalid_json",
      "The request body is empty; send a JSON object (Content-Type: application/json).",
      { status: 400 },
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const why = error instanceof SyntaxError ? `: ${error.message.slice(0, 200)}` : "";
    throw new ReelayError("invalid_json", `The request body is not valid JSON${why}.`, {
      status: 400,
    });
  }
}

/**
 * reelay's own routes (keys, budgets, batches, webhooks) take only the fields they name: a field a
 * version does not know is refused, never dropped, so a setting it cannot honour (`scopes` on a
 * server without scopes) never turns into more than was asked for. The contract's routes do not
 * use this: the upstream may know a field reelay does not.
 */
export function refuseUnknownFields(body: unknown, known: readonly string[], base = ""): void {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return;
  const unknown = Object.keys(body).find((field) => !known.includes(field));
  if (unknown === undefined) return;
  const path = base === "" ? unknown : `${base}.${unknown}`;
  throw new ReelayError(
    "unknown_field",
    `${shownInput(path, 100)} is not a field of this request (known: ${known.join(", ")}); nothing was made.`,
    { status: 400, path: path.slice(0, 100) },
  );
}
