/**
 * `reelay jobs [--status S] [--limit N] [--cursor C] [--json]`: the newest jobs as a table; --json
 * prints the API's page `{data, next_cursor}` as one object.
 */
import { s3Uri, table } from "../client/format.ts";
import { openSession, reportFailures } from "../client/session.ts";
import type { JobView } from "../client/types.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

export async function runJobs(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: {
      status: { type: "string" },
      limit: { type: "string", default: "20" },
      cursor: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}".`);
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new UsageError(`--limit must be a positive whole number, got "${values.limit}".`);
  return reportFailures(io, "jobs", values.json, async () => {
    const { client } = await openSession(io);
    const page = await client.listJobs({
      limit,
      ...(values.status === undefined ? {} : { status: values.status }),
      ...(values.cursor === undefined ? {} : { cursor: values.cursor }),
    });
    if (values.json) {
      io.stdout(`${JSON.stringify(page)}\n`);
      return 0;
    }
    if (page.data.length === 0) {
      io.stdout(values.status === undefined ? "no jobs yet\n" : `no ${values.status} jobs\n`);
      return 0;
    }
    io.stdout(
      table([
        ["ID", "STATUS", "MODEL", "MODE", "POLLS", "CREATED", "RESULT"],
        ...page.data.map(row),
      ]),
    );
    if (page.next_cursor !== null) io.stdout(`more: reelay jobs --cursor ${page.next_cursor}\n`);
    return 0;
  });
}

function row(job: JobView): string[] {
  const output = job.outputs[0];
  const result =
    output !== undefined
      ? `${output.bytes} bytes ${s3Uri(output)}`
      : job.error !== null
        ? `${job.error.code}: ${job.error.message}`
        : "";
  return [
    job.id,
    job.status,
    job.model,
    job.mode,
    String(job.polls),
    job.timings.createdAt,
    result,
  ];
}
