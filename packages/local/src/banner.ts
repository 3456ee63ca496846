/** What `reelay up` prints once the stack is ready: where it is, the key, and what to try first. */
import type { LocalStack } from "./stack.ts";

export function readyBanner(
  stack: Pick<
    LocalStack,
    "url" | "apiKey" | "bucket" | "s3Endpoint" | "dataDir" | "upstream" | "resumed"
  >,
  startedMs: number,
): string {
  const lines = [
    `reelay is up (${(startedMs / 1000).toFixed(1)} s)`,
    ``,
    `  API        ${stack.url}   (GET ${stack.url}/healthz)`,
    `  API key    ${stack.apiKey}`,
    `  S3         ${stack.s3Endpoint}   bucket ${stack.bucket}   (access key S3RVER / S3RVER)`,
    `  upstream   ${stack.upstream === "simulator" ? "the bundled simulator" : stack.upstream}`,
    `  data       ${stack.dataDir}   (events in events.jsonl)`,
  ];
  if (stack.resumed.length > 0)
    lines.push(`  resumed    ${stack.resumed.length} unfinished job(s)`);
  lines.push(
    ``,
    `Try, in another terminal:`,
    `  npx reelay generate "a paper boat in the rain" --model gamma-3.1`,
    `  echo "a lighthouse at dusk" > prompt.txt && npx reelay drop prompt.txt`,
    `  npx reelay watch`,
    ``,
    `Ctrl-C stops; unfinished jobs resume on the next start.`,
    ``,
  );
  return lines.join("\n");
}
