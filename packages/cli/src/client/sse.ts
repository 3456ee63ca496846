/**
 * Server-Sent Events over fetch: the wire format of the WHATWG spec (fields `event`, `data`, `id`,
 * comments, blank-line dispatch, CR/LF/CRLF line ends), without EventSource, which Node 20 lacks.
 */
export interface SseMessage {
  event: string;
  data: string;
  id: string | undefined;
}

export async function* readSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (;;) {
      const end = buffer.search(/\r\n|\r|\n/);
      // A lone CR at the end of the buffer may be the first half of a CRLF still in flight.
      if (end === -1 || (end === buffer.length - 1 && buffer[end] === "\r")) break;
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
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
}
