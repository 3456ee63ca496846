/**
 * `reelay batch FILE [--wait] [--quote] [--priority P] [--json]`: send a JSONL (or `{"requests":
 * [...]}`) file as one batch; with --wait, follow it to the end and exit 0 only if every request
 * succeeded. `reelay batch status ID` and `reelay batch results ID` (JSONL on stdout) look at one.
 */
import { readFile } from "node:fs/promises";
import type { BatchView } from "../client/api.ts";
import { batchProgress } from "../client/batch-progress.ts";
import { openSession, reportFailures } from "../client/session.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

const FOLLOW_EVERY_MS = 1_000;

function oneId(positionals: string[], sub: string): string {
  const [id, ...extra] = positionals;
  if (id === undefined || extra.length > 0)
    throw new UsageError(`give exactly one batch id, e.g. \`reelay batch ${sub} bat_01J…\`.`);
  return id;
}

function batchLines(batch: BatchView): string {
  const counts = Object.entries(batch.counts)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`)
    .join(", ");
  const results =
    batch.results === null ? "" : `\n  results   s3://${batch.results.bucket}/${batch.results.key}`;
  return `${batch.id}  ${batch.status}\n  requests  ${batch.total} (${counts || "none yet"})${results}\n`;
}

function allSucceeded(batch: BatchView): boolean {
  return (batch.counts.succeeded ?? 0) === batch.total;
}

async function readBatchFile(file: string, io: Io): Promise<string> {
  if (file === "-") return io.readStdin();
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? "unreadable"}.`,
    );
  }
}

async function follow(io: Io, id: string, json: boolean): Promise<BatchView> {
  const { client } = await openSession(io);
  const progress = batchProgress(io.stderr, !json && io.terminal.stderr);
  for (;;) {
    const batch = await client.getBatch(id);
    progress.update(batch);
    if (batch.status === "completed") {
      progress.stop();
      return batch;
    }
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_EVERY_MS));
  }
}

function quote(io: Io, batch: BatchView, json: boolean): number {
  if (json) io.stdout(`${JSON.stringify(batch)}\n`);
  else {
    io.stdout(
      `${batch.total} requests: ${batch.valid} valid, ${batch.rejected?.length ?? 0} rejected; nothing was made\n`,
    );
    const estimate = batch.estimate;
    if (estimate !== undefined && estimate !== null) {
      const { video_seconds: seconds, images } = estimate.usage;
      const cost =
        estimate.cost === null
          ? "no price table"
          : `${estimate.cost} ${estimate.currency}${estimate.unpriced > 0 ? ` (${estimate.unpriced} lines unpriced)` : ""}`;
      io.stdout(`estimate: ${seconds} video seconds, ${images} images; ${cost}\n`);
    }
    for (const line of batch.rejected ?? [])
      for (const error of line.errors)
        io.stdout(
          `  line ${line.line}: ${error.path ? `${error.path}: ` : ""}${error.message} [${error.code}]\n`,
        );
  }
  return (batch.rejected?.length ?? 0) === 0 ? 0 : 1;
}

async function submit(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: {
      wait: { type: "boolean", default: false },
      quote: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      priority: { type: "string" },
    },
  });
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0)
    throw new UsageError("give one batch file, e.g. `reelay batch prompts.jsonl` (- reads stdin).");
  const text = await readBatchFile(file, io);
  return reportFailures(io, "batch", values.json, async () => {
    const { client } = await openSession(io);
    const made = await client.createBatch(text, {
      dryRun: values.quote,
      ...(values.priority === undefined ? {} : { priority: values.priority }),
    });
    if (values.quote) return quote(io, made, values.json);
    if (!values.wait) {
      io.stdout(values.json ? `${JSON.stringify(made)}\n` : batchLines(made));
      return 0;
    }
    io.stderr(`batch ${made.id}: ${made.total} requests\n`);
    const done = await follow(io, made.id, values.json);
    io.stdout(values.json ? `${JSON.stringify(done)}\n` : batchLines(done));
    return allSucceeded(done) ? 0 : 1;
  });
}

export async function runBatch(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "status" || sub === "results") {
    const { values, positionals } = parseCommandArgs(rest, {
      options: { json: { type: "boolean", default: false } },
    });
    const id = oneId(positionals, sub);
    return reportFailures(io, `batch ${sub}`, values.json, async () => {
      const { client } = await openSession(io);
      if (sub === "results") {
        io.stdout(await client.batchResults(id));
        return 0;
      }
      const batch = await client.getBatch(id);
      io.stdout(values.json ? `${JSON.stringify(batch)}\n` : batchLines(batch));
      return batch.status === "completed" && !allSucceeded(batch) ? 1 : 0;
    });
  }
  return submit(args, io);
}
