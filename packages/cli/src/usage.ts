import { parseArgs, type ParseArgsConfig } from "node:util";

/** A mistake in how the command was called: exit code 2 and a one-line explanation. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** node:util parseArgs, with its TypeErrors turned into UsageErrors a person can read. */
export function parseCommandArgs<T extends ParseArgsConfig>(args: string[], config: T) {
  try {
    return parseArgs({ ...config, args, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
