/**
 * The copy benchmark's S3, in a process of its own (as S3 is another host than the upstream's):
 * `s3rver-child <dataDir>` starts the local stack's stand-ins there (s3rver with reelay's multipart
 * handling) and prints one JSON line { s3Endpoint, bucket }. Stops when its stdin closes.
 */
import { startStandins } from "../../../packages/local/src/aws-standins.ts";

const [dataDir] = process.argv.slice(2);
if (dataDir === undefined) throw new Error("usage: s3rver-child <dataDir>");
const standins = await startStandins({ dataDir, s3Port: 0 });
console.log(JSON.stringify({ s3Endpoint: standins.s3Endpoint, bucket: standins.bucket }));
process.stdin.resume();
process.stdin.once("end", () => void standins.close().then(() => process.exit(0)));
