import type { Issue } from "../errors.ts";
import type { ValidationCode } from "./codes.ts";

/** Collects errors and warnings for one request; codes are limited to codes.ts. */
export class Issues {
  readonly errors: Issue[] = [];
  readonly warnings: Issue[] = [];

  error(path: string, code: ValidationCode, message: string): void {
    this.errors.push({ path, code, message });
  }

  warn(path: string, code: ValidationCode, message: string): void {
    this.warnings.push({ path, code, message });
  }

  /** Hard rules refuse, soft rules warn: the one switch every catalog rule goes through. */
  report(
    strength: "hard" | "soft",
    path: string,
    codes: [ValidationCode, ValidationCode],
    message: string,
  ): void {
    if (strength === "hard") this.error(path, codes[0], message);
    else this.warn(path, codes[1], message);
  }
}

/** `frame_images[1].frame_type` style, as a person writes it. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += `${out === "" ? "" : "."}${String(key)}`;
  }
  return out;
}

/** `a, b or c`, each value in backticks, for messages. */
export function listValues(values: readonly (string | number)[]): string {
  const quoted = values.map((value) => `\`${value}\``);
  if (quoted.length <= 1) return quoted.join("");
  return `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
}

/**
 * A value the caller sent, quoted for a message and cut to `max` characters: messages are stored
 * with the job (warnings) and sent back (errors), so they never carry a huge field whole.
 */
export function shown(value: unknown, max = 60): string {
  const cut = (text: string) => (text.length > max ? `${text.slice(0, max)}…` : text);
  return typeof value === "string"
    ? JSON.stringify(cut(value))
    : cut(JSON.stringify(value) ?? String(value));
}

/** JSON-ish type name of a value, for "got ..." in messages. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  return typeof value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
