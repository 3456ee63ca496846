/** Where the local stack says what happens in the background (drops, executions, resumes). */
export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export function consoleLogger(
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  return {
    info: (message) => write(`reelay: ${message}\n`),
    error: (message, error) =>
      write(`reelay: ${message}${error === undefined ? "" : ` (${describe(error)})`}\n`),
  };
}

export const silentLogger: Logger = { info: () => undefined, error: () => undefined };
