/**
 * `reelay status ID [--json]`: one job's record. Exit 0 while it runs or once it succeeded, 1 when
 * it failed or was cancelled (or is unknown), 2 when reelay cannot be reached.
 */
import { openSession, reportFailures } from "../client/session.ts";
import { jobSummary } from "../client/format.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

export async function runStatus(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: { json: { type: "boolean", default: false } },
  });
  const [id, ...extra] = positionals;
  if (id === undefined || extra.length > 0)
    throw new UsageError("give exactly one job id, e.g. `reelay status vidtsk_01J…`.");
  return reportFailures(io, "status", values.json, async () => {
    const { client } = await openSession(io);
    const job = await client.getJob(id);
    io.stdout(values.json ? `${JSON.stringify(job)}\n` : jobSummary(job));
    return job.status === "failed" || job.status === "cancelled" ? 1 : 0;
  });
}
