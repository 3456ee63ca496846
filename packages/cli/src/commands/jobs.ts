/**
 * `reelay jobs [--status S] [--metadata k=v ...] [--expiring 24h] [--limit N] [--cursor C] [--json]`:
 * the newest jobs as a table (--metadata: only those carrying every pair given, as GET /v1/jobs's
 * `metadata.k=v`; --expiring: only those whose outputs expire within that window, with when);
 * --json prints the API's page `{data, next_cursor}` as one object.
 */
import { s3Uri, table } from "../client/format.ts";
import { openSession, reportFailures } from "../client/session.ts";
import type { JobView } from "../client/types.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";
import { windowSeconds } from "./expires.ts";
import { metadataPairs } from "./generate.ts";

export async function runJobs(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: {
      status: { type: "string" },
      limit: { type: "string", default: "20" },
      cursor: { type: "string" },
      expiring: { type: "string" },
      metadata: { type: "string", multiple: true },
      json: { type: "boolean", default: false },
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}".`);
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new UsageError(`--limit must be a positive whole number, got "${values.limit}".`);
  const expiring =
    values.expiring === undefined ? undefined : windowSeconds(values.expiring, "--expiring");
  const metadata = metadataPairs(values.metadata);
  return reportFailures(io, "jobs", values.json, async () => {
    const { client } = await openSession(io);
    const page = await client.listJobs({
      limit,
      ...(values.status === undefined ? {} : { status: values.status }),
      ...(values.cursor === undefined ? {} : { cursor: values.cursor }),
      ...(expiring === undefined ? {} : { expiring_within: expiring }),
      ...(metadata === undefined ? {} : { metadata }),
    });
    if (values.json) {
      io.stdout(`${JSON.stringify(page)}\n`);
      return 0;
    }
    if (page.data.length === 0) {
      io.stdout(
        expiring !== undefined
          ? `no job's outputs expire within ${values.expiring}\n`
          : metadata !== undefined
            ? "no job carries that metadata\n"
            : values.status === undefined
              ? "no jobs yet\n"
              : `no ${values.status} jobs\n`,
      );
      return 0;
    }
    const head = ["ID", "STATUS", "MODEL", "MODE", "POLLS", "CREATED", "RESULT"];
    io.stdout(
      expiring === undefined
        ? table([head, ...page.data.map(row)])
        : table([
            [...head, "EXPIRES"],
            ...page.data.map((job) => [...row(job), job.expires_at ?? ""]),
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
