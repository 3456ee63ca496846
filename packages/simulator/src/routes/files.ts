import type { ServerResponse } from "node:http";
import {
  keyedHeaderRules,
  requestFaults,
  findTask,
  type Req,
  type SimContext,
} from "../context.ts";
import { HttpError, sendError } from "../http-io.ts";
import { outputChunks, outputNames, outputSize, statusAt } from "../tasks.ts";

function waitWritable(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/**
 * Streams chunks with backpressure. With `cutAt`, stops after that many bytes and destroys the socket
 * once they are flushed, so the client sees fewer bytes than Content-Length promised.
 */
async function pump(
  res: ServerResponse,
  chunks: Iterable<Buffer>,
  cutAt: number | undefined,
): Promise<void> {
  let sent = 0;
  for (const chunk of chunks) {
    if (res.destroyed) return;
    const part =
      cutAt !== undefined && sent + chunk.length > cutAt ? chunk.subarray(0, cutAt - sent) : chunk;
    sent += part.length;
    if (cutAt !== undefined && sent >= cutAt) {
      res.write(part, () => res.destroy());
      return;
    }
    if (!res.write(part)) await waitWritable(res);
  }
  res.end();
}

/** The first `size` bytes of the chunks, chunk by chunk. */
function* firstBytes(chunks: Iterable<Buffer>, size: number): Generator<Buffer> {
  let left = size;
  for (const chunk of chunks) {
    if (left <= 0) return;
    const part = chunk.subarray(0, left);
    left -= part.length;
    yield part;
  }
}

/**
 * The file with every byte of its first `mdat` box zeroed past the box's header: its structure
 * still parses (the `moov` is intact), its frames do not decode. The length is unchanged.
 */
function* zeroedFrames(chunks: Iterable<Buffer>): Generator<Buffer> {
  let done = false;
  for (const chunk of chunks) {
    const at = done ? -1 : chunk.indexOf("mdat", 0, "latin1");
    if (at < 0) {
      yield chunk;
      continue;
    }
    done = true;
    const copy = Buffer.from(chunk);
    copy.fill(0, at + 4);
    yield copy;
  }
}

const CONTENT_TYPES: Record<string, string> = { mp4: "video/mp4", png: "image/png" };

/** GET|HEAD /files/<taskId>/<name>: presigned-style, no Authorization. */
export async function download(ctx: SimContext, r: Req, id: string, name: string): Promise<void> {
  ctx.counters.download(id);
  const task = findTask(ctx, id);
  const outcome = await requestFaults(ctx, r, ["download"], task?.faults ?? [], task?.model);
  if (outcome.kind !== "none") return;
  if (
    task === undefined ||
    !outputNames(task).includes(name) ||
    statusAt(task, ctx.opts.now()) !== "succeeded"
  ) {
    throw new HttpError(404, "file_not_found", "No such file");
  }
  const check = ctx.signer.check(r.url.pathname, r.url.searchParams, ctx.opts.now());
  if (check !== "ok") {
    throw new HttpError(
      403,
      check === "expired" ? "url_expired" : "invalid_signature",
      check === "expired" ? "The URL has expired" : "The URL signature is invalid",
    );
  }
  const rules = [...ctx.serverRules, ...task.faults, ...keyedHeaderRules(r, () => true)];
  if (
    ctx.engine.first(rules, ["download"], new Set(["download_error"]), task.model) !== undefined
  ) {
    sendError(r.res, 503, "download_unavailable", "The file is temporarily unavailable");
    return;
  }
  const truncate =
    ctx.engine.first(rules, ["download"], new Set(["truncate"]), task.model) !== undefined;
  // A file that is itself cut short: the download is whole, its Content-Length the half it holds.
  const shortFile =
    ctx.engine.first(rules, ["download"], new Set(["truncated_file"]), task.model) !== undefined;
  // A whole file whose frames do not decode: every reader of its boxes takes it for a good one.
  const undecodable =
    ctx.engine.first(rules, ["download"], new Set(["undecodable_file"]), task.model) !== undefined;
  const size = shortFile ? Math.floor(outputSize(task, name) / 2) : outputSize(task, name);
  const ext = name.slice(name.lastIndexOf(".") + 1);
  r.res.writeHead(200, {
    "content-type": CONTENT_TYPES[ext] ?? "application/octet-stream",
    "content-length": size,
    "cache-control": "no-store",
  });
  if (r.req.method === "HEAD") {
    r.res.end();
    return;
  }
  const chunks = undecodable ? zeroedFrames(outputChunks(task, name)) : outputChunks(task, name);
  await pump(
    r.res,
    shortFile ? firstBytes(chunks, size) : chunks,
    truncate ? Math.floor(size / 2) : undefined,
  );
}
