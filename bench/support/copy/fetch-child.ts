/**
 * The copy benchmark's baseline, in a fresh process: `fetch-child <url> <file>` copies the URL to a
 * file with plain fetch and fs.createWriteStream, hashing every byte with sha256 on the way, as a
 * copy whose outputs are recorded with their sha256 must (reelay's copier does the same). Prints one
 * JSON line: { ms, bytes, maxRssBytes, cpuMs, processCpuMs }: the time and cpuMs cover the copy
 * alone (from the request to the file's close), processCpuMs the whole process, its start included.
 */
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { cpuMs } from "../child.ts";

const [url, file] = process.argv.slice(2);
if (url === undefined || file === undefined) throw new Error("usage: fetch-child <url> <file>");
const started = performance.now();
const cpuAtStart = process.cpuUsage();
const response = await fetch(url);
if (!response.ok || response.body === null) throw new Error(`GET answered ${response.status}`);
const out = createWriteStream(file);
const hash = createHash("sha256");
await pipeline(
  Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
  async function* (chunks: AsyncIterable<Uint8Array>) {
    for await (const chunk of chunks) {
      hash.update(chunk);
      yield chunk;
    }
  },
  out,
);
hash.digest();
const ms = performance.now() - started;
const copyCpuMs = cpuMs(cpuAtStart);
// maxRSS is in kilobytes.
console.log(
  JSON.stringify({
    ms,
    bytes: out.bytesWritten,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    cpuMs: copyCpuMs,
    processCpuMs: cpuMs(),
  }),
);
