/**
 * What a function test's handlers write to stdout and stderr (Powertools writes info and debug to
 * stdout, warn and error to stderr): a capture, not a mock; every write still goes through.
 */
import { vi } from "vitest";

/** Starts capturing; the chunks land in the returned array. vi.restoreAllMocks() ends it. */
export function captureWrites(): string[] {
  const written: string[] = [];
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    vi.spyOn(stream, "write").mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      written.push(String(chunk));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
  }
  return written;
}

/** The JSON lines among the chunks from `from` on. */
export function jsonLines(written: string[], from = 0): Record<string, any>[] {
  return written
    .slice(from)
    .flatMap((chunk) => chunk.split("\n"))
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
}
