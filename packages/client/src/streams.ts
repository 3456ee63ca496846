/**
 * Reading a response body as it arrives, with web streams only (a reader and a TextDecoder), so the
 * same code runs in Node, browsers, Deno and edge runtimes: text lines (JSONL) and Server-Sent
 * Events (the WHATWG wire format: `event`, `data`, `id` fields, comments, blank-line dispatch,
 * CR, LF or CRLF line ends), without EventSource, which cannot send an Authorization header.
 */

export interface SseMessage {
  event: string;
  data: string;
  id: string | undefined;
}

/** The body's lines, each without its line end; a last line without one is still given. */
export async function* readLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (;;) {
        const end = buffer.search(/\r\n|\r|\n/);
        // A lone CR at the end may be the first half of a CRLF still in flight.
        if (end === -1 || (!done && end === buffer.length - 1 && buffer[end] === "\r")) break;
        yield buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
      }
      if (done) break;
    }
    if (buffer !== "") yield buffer;
  } finally {
    // The caller stopped early (break, abort): let the connection go.
    await reader.cancel().catch(() => undefined);
  }
}

export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  for await (const line of readLines(body)) {
    if (line === "") {
      if (data.length > 0) yield { event: event || "message", data: data.join("\n"), id };
      event = "";
      data = [];
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\0")) id = value;
  }
}
