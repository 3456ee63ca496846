import { describe, expect, it } from "vitest";
import { readLines } from "../src/streams.ts";

/** A body that arrives in these pieces, as a network delivers it. */
function body(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe("readLines", () => {
  it("splits on LF, CRLF and CR, across chunk edges, and keeps a last line without an end", async () => {
    expect(await all(readLines(body('{"a":', "1}\r", '\n{"b":2}\n', "x\ry")))).toEqual([
      '{"a":1}',
      '{"b":2}',
      "x",
      "y",
    ]);
  });

  it("decodes a character split between two chunks", async () => {
    const bytes = new TextEncoder().encode("é\n");
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 1));
        controller.enqueue(bytes.slice(1));
        controller.close();
      },
    });
    expect(await all(readLines(stream))).toEqual(["é"]);
  });
});
