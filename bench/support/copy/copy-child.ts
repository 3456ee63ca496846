/**
 * The copy benchmark's subject, in a fresh process: `copy-child <url> <s3Endpoint> <bucket> <key>`
 * runs reelay's copyUrlToS3 as the Download step does (the guarded fetch with the local policy, the
 * ObjectStore on the local S3 client, a media probe reading the MP4 boxes on the way), with the garbage collector set as the Download
 * function sets it (core's adapters/s3/copier-gc.ts). Prints one JSON line: { ms, bytes, sha256,
 * maxRssBytes, cpuMs, processCpuMs }: the time and cpuMs cover the copy alone (from the request to
 * the completed upload), processCpuMs the whole process, its start and module loading included.
 */
import { guardedFetch, collectGarbageForCopies, ObjectStore } from "@reelay/core/adapters";
import { outputFetchPolicy } from "@reelay/core/domain";
import { copyUrlToS3, loadMediaProbe } from "@reelay/core/usecases";
import { localS3Client } from "@reelay/local/aws-clients";
import { cpuMs } from "../child.ts";

const [url, s3Endpoint, bucket, key] = process.argv.slice(2);
if (url === undefined || s3Endpoint === undefined || bucket === undefined || key === undefined) {
  throw new Error("usage: copy-child <url> <s3Endpoint> <bucket> <key>");
}
collectGarbageForCopies();
const s3 = localS3Client(s3Endpoint);
const store = new ObjectStore(s3, bucket);
// The client's first call resolves credentials and the endpoint: done before the clock starts, as
// in a running stack.
await store.head(`${key}.warm-up`);
const started = performance.now();
const cpuAtStart = process.cpuUsage();
const fetcher = guardedFetch(outputFetchPolicy("local"));
const { mediaProbe } = await loadMediaProbe();
const copied = await copyUrlToS3(fetcher, url, store, key, mediaProbe("video"));
if (copied.media === undefined) throw new Error("the copy read no media");
const ms = performance.now() - started;
const copyCpuMs = cpuMs(cpuAtStart);
s3.destroy();
console.log(
  JSON.stringify({
    ms,
    bytes: copied.bytes,
    sha256: copied.sha256,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    cpuMs: copyCpuMs,
    processCpuMs: cpuMs(),
  }),
);
