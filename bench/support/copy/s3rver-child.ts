/**
 * The copy benchmark's S3, in a process of its own (as S3 is another host than the upstream's):
 * `s3rver-child <dataDir>` runs s3rver with reelay's extras exactly as the local stack's own s3rver
 * child does (packages/local/src/s3rver-run.ts) and prints one JSON line { s3Endpoint }. Stops
 * when its stdin closes.
 */
import { runS3rver } from "../../../packages/local/src/s3rver-run.ts";

const [dataDir] = process.argv.slice(2);
if (dataDir === undefined) throw new Error("usage: s3rver-child <dataDir>");
const { s3rver, address } = await runS3rver(dataDir, "127.0.0.1", 0);
console.log(JSON.stringify({ s3Endpoint: `http://127.0.0.1:${address.port}` }));
process.stdin.resume();
process.stdin.once("end", () => void s3rver.close().then(() => process.exit(0)));
