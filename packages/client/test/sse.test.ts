import { describe, expect, it } from "vitest";
import { readSse, type SseMessage } from "../src/streams.ts";

/** A body that arrives in these pieces, as a network delivers it. */
async function parse(chunks: string[]): Promise<SseMessage[]> {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  const messages: SseMessage[] = [];
  for await (const message of readSse(body)) messages.push(message);
  return messages;
}

describe("readSse (the event stream events() and reelay watch follow)", () => {
  it("dispatches a message per blank line with its event, data and id, skipping comments", async () => {
    expect(
      await parse([
        ": subscribed\n\n",
        'event: Generation Succeeded\ndata: {"a":1}\nid: j.succeeded\n\n',
      ]),
    ).toEqual([{ event: "Generation Succeeded", data: '{"a":1}', id: "j.succeeded" }]);
  });

  it("joins a message split across chunks, even inside a CRLF line end", async () => {
    expect(await parse(["event: X\r", "\ndata: hel", "lo\r\n\r\n"])).toEqual([
      { event: "X", data: "hello", id: undefined },
    ]);
  });

  it("joins several data lines with newlines and names an event without a type 'message'", async () => {
    expect(await parse(["data: one\ndata: two\n\n"])).toEqual([
      { event: "message", data: "one\ntwo", id: undefined },
    ]);
  });

  it("drops a message the stream ended before its blank line", async () => {
    expect(await parse(["data: complete\n\n", "data: cut off\n"])).toEqual([
      { event: "message", data: "complete", id: undefined },
    ]);
  });
});
