/** The JSON body of POST /v1/uploads that asks for a presigned PUT: the file as the caller declares it. */
import { ReelayError } from "@reelay/core/domain";
import { parseJson, refuseUnknownFields } from "../../body.ts";

const FIELDS = ["content_type", "size", "sha256", "name"] as const;
const SHA256 = /^[0-9a-f]{64}$/;

export interface DeclaredFile {
  contentType: string;
  size: number;
  sha256?: string;
}

function badField(path: string, message: string): ReelayError {
  return new ReelayError("invalid_request", `\`${path}\` ${message}`, { status: 400, path });
}

/**
 * `{content_type, size, sha256?, name?}`: `name` is taken and not kept (reelay goes by the bytes);
 * whether the type and size are taken is the use case's to say.
 */
export function readDeclaredFile(text: string): DeclaredFile {
  const body = parseJson(text);
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw new ReelayError("invalid_request", "Send a JSON object {content_type, size}.", {
      status: 400,
    });
  refuseUnknownFields(body, FIELDS);
  const { content_type, size, sha256, name } = body as Record<string, unknown>;
  if (typeof content_type !== "string") throw badField("content_type", "must be a string.");
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 1)
    throw badField("size", "must be the file's length in bytes, a whole number above 0.");
  if (sha256 !== undefined && (typeof sha256 !== "string" || !SHA256.test(sha256)))
    throw badField("sha256", "must be 64 lower-case hex digits.");
  if (name !== undefined && typeof name !== "string") throw badField("name", "must be a string.");
  return { contentType: content_type, size, ...(sha256 === undefined ? {} : { sha256 }) };
}
