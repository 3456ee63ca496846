/**
 * The codes validate() can report, with their meanings: the registry's entries seen in `validate`
 * (packages/core/src/domain/error-codes.ts holds them with every other code reelay answers or records).
 */
import { type CodeSeenIn, ERROR_CODES, type ErrorCode } from "../error-codes.ts";

export type ValidationCode = CodeSeenIn<"validate">;

export const ValidationCodes = Object.fromEntries(
  (Object.keys(ERROR_CODES) as ErrorCode[])
    .filter((code) => (ERROR_CODES[code].seen as readonly string[]).includes("validate"))
    .map((code) => [code, ERROR_CODES[code].meaning]),
) as Readonly<Record<ValidationCode, string>>;
