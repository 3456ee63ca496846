/** The body of each Response guardedFetch made, as the Buffers Node read (see nodeBody). */
const nodeBodies = new WeakMap<Response, AsyncIterable<Buffer>>();

/**
 * The body of a Response guardedFetch made, as the Buffers Node read it, with the same checks as
 * its web stream but without that layer (for a 1 GiB copy the web-stream layers cost more CPU than
 * hashing the bytes); undefined for a Response made elsewhere. Read one or the other, not both.
 */
export function nodeBody(response: Response): AsyncIterable<Buffer> | undefined {
  return nodeBodies.get(response);
}

/** Called by the fetch that read `chunks` for `response`: nodeBody then returns them. */
export function keepNodeBody(response: Response, chunks: AsyncIterable<Buffer>): void {
  nodeBodies.set(response, chunks);
}
