/** Opaque list cursors: the listing position of the last job returned, base64url JSON. */
import { ReelayError } from "../errors.ts";

export interface ListPosition {
  id: string;
  sk: string;
}

export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.id, position.sk]), "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): ListPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      typeof value[1] === "string"
    ) {
      return { id: value[0], sk: value[1] };
    }
  } catch {
    // fall through to the one error below
  }
  throw new ReelayError(
    "invalid_cursor",
    "The cursor is not one this service returned; start the listing again without it.",
    {
      path: "cursor",
      status: 400,
    },
  );
}
