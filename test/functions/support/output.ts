/** What a function writes to stdout and stderr, captured (and still written) for tests to read. */
import { vi } from "vitest";

/** Starts capturing; the chunks land in the returned array. vi.restoreAllMocks() stops it. */
export function captureOutput(streams: NodeJS.WriteStream[]): string[] {
  const written: string[] = [];
  for (const stream of streams) {
    const write = stream.write.bind(stream);
    vi.spyOn(stream, "write").mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      written.push(String(chunk));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
  }
  return written;
}

/** The JSON lines written from chunk `from` on that `keep` selects, parsed. */
export function jsonLinesSince(
  written: readonly string[],
  from: number,
  keep: (line: string) => boolean,
): Record<string, any>[] {
  return written
    .slice(from)
    .flatMap((chunk) => chunk.split("\n"))
    .filter((line) => line.startsWith("{") && keep(line))
    .map((line) => JSON.parse(line));
}
