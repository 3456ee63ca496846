/** Reading a JSON request body: a size limit first, then one clear error for anything not JSON. */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ReelayError } from "@reelay/core";

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
