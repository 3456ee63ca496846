/**
 * `node --import tsx copy-gc-child.ts <s3Endpoint> <bucket> <key> [module]`: imports `module`
 * (when given), then streams 41 MiB in 64 KiB chunks into the bucket through core's ObjectStore
 * (five full 8 MiB parts and a last one of 1 MiB) and prints one JSON line: { parts, forcedMinor },
 * the scavenges run on request (perf_hooks' gc entries flagged forced) while it streamed.
 */
import { constants, type PerformanceEntry, PerformanceObserver } from "node:perf_hooks";
import { setImmediate as turn } from "node:timers/promises";
import { ObjectStore, PART_SIZE } from "@reelay/core/adapters";
import { localS3Client } from "@reelay/local/aws-clients";

const [s3Endpoint, bucket, key, module] = process.argv.slice(2);
if (s3Endpoint === undefined || bucket === undefined || key === undefined)
  throw new Error("usage: copy-gc-child <s3Endpoint> <bucket> <key> [module]");
if (module !== undefined) await import(module);

const CHUNK = 64 * 1024;
const BYTES = 5 * PART_SIZE + 1024 * 1024;

async function* chunks(): AsyncGenerator<Uint8Array> {
  for (let sent = 0; sent < BYTES; sent += CHUNK) {
    yield Buffer.alloc(Math.min(CHUNK, BYTES - sent), sent % 251);
    if (sent % (16 * CHUNK) === 0) await turn();
  }
}

let forcedMinor = 0;
const count = (entries: readonly PerformanceEntry[]) => {
  for (const entry of entries) {
    const detail = (entry as PerformanceEntry & { detail: { kind: number; flags: number } }).detail;
    const forced = (detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0;
    if (detail.kind === constants.NODE_PERFORMANCE_GC_MINOR && forced) forcedMinor++;
  }
};
const observer = new PerformanceObserver((list) => count(list.getEntries()));
observer.observe({ entryTypes: ["gc"] });
const s3 = localS3Client(s3Endpoint);
const stored = await new ObjectStore(s3, bucket).uploadStream(key, chunks(), {
  contentType: "application/octet-stream",
  expectedBytes: BYTES,
});
// Node queues a collection's entry in a task of the event loop after it; what has not reached the
// callback by then is still in the observer's buffer.
await turn();
await turn();
count(observer.takeRecords());
observer.disconnect();
s3.destroy();
if (stored.bytes !== BYTES) throw new Error(`stored ${stored.bytes} bytes, sent ${BYTES}`);
console.log(JSON.stringify({ parts: Math.ceil(BYTES / PART_SIZE), forcedMinor }));
