/**
 * `reelay retry ID [--prompt P] [--json]`: a new job from a failed or cancelled one's request
 * (POST /v1/jobs/{id}/retry), with a new prompt when given. A content-policy or invalid-request
 * failure is refused unless the prompt changes. With a batch id (`bat_...`), a new batch of the
 * completed batch's retryable failures (POST /v1/batches/{id}/retry). Prints the new id; exit 1
 * when refused.
 */
import type { ReelayApiClient } from "../client/api.ts";
import { openSession, reportFailures } from "../client/session.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

async function retryBatch(
  client: ReelayApiClient,
  id: string,
  json: boolean,
  io: Io,
): Promise<number> {
  const batch = await client.retryBatch(id);
  io.stdout(
    json
      ? `${JSON.stringify(batch)}\n`
      : `${batch.id} retries ${batch.total} failed line(s) of ${id}; follow it with \`reelay batch status ${batch.id}\`\n`,
  );
  return 0;
}

export async function runRetry(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: { prompt: { type: "string" }, json: { type: "boolean", default: false } },
  });
  const [id, ...rest] = positionals;
  if (id === undefined || rest.length > 0)
    throw new UsageError("use `reelay retry JOB_ID [--prompt P]` or `reelay retry BATCH_ID`.");
  const isBatch = id.startsWith("bat_");
  if (isBatch && values.prompt !== undefined)
    throw new UsageError("--prompt goes with a job id; a batch is retried as it was.");
  return reportFailures(io, "retry", values.json, async () => {
    const { client } = await openSession(io);
    if (isBatch) return retryBatch(client, id, values.json, io);
    const job = await client.retryJob(
      id,
      values.prompt === undefined ? undefined : { prompt: values.prompt },
    );
    io.stdout(
      values.json
        ? `${JSON.stringify(job)}\n`
        : `${job.id} retries ${id}; follow it with \`reelay status ${job.id}\`\n`,
    );
    return 0;
  });
}
