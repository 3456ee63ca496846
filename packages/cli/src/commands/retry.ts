/**
 * `reelay retry ID [--prompt P] [--json]`: a new job from a failed or cancelled one's request
 * (POST /v1/jobs/{id}/retry), with a new prompt when given. A content-policy or invalid-request
 * failure is refused unless the prompt changes. Prints the new job's id; exit 1 when refused.
 */
import { openSession, reportFailures } from "../client/session.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

export async function runRetry(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: { prompt: { type: "string" }, json: { type: "boolean", default: false } },
  });
  const [id, ...rest] = positionals;
  if (id === undefined || rest.length > 0)
    throw new UsageError("use `reelay retry JOB_ID [--prompt P]`.");
  return reportFailures(io, "retry", values.json, async () => {
    const { client } = await openSession();
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
