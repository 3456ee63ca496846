/** Human renderings shared by status, jobs, generate and watch. */
import { isBatchEvent, type ReelayEvent } from "@reelay/core/domain";
import type { JobView } from "./types.ts";

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export function s3Uri(output: { bucket: string; key: string }): string {
  return `s3://${output.bucket}/${output.key}`;
}

/**
 * One line per event: `succeeded vidtsk_… gamma-3.1 7907 bytes s3://bucket/outputs/…`, or for a
 * batch `completed bat_… 298 succeeded, 2 failed s3://bucket/outputs/batches/…/results.jsonl`.
 */
export function eventLine(event: ReelayEvent): string {
  if (isBatchEvent(event)) {
    const { batchId, counts, results } = event.detail;
    const parts = Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([status, n]) => `${n} ${status}`);
    return `completed ${batchId} ${parts.join(", ")} ${s3Uri(results)}`;
  }
  const { detail } = event;
  const head = `${detail.status} ${detail.jobId} ${detail.model}`;
  if (detail.output !== null) return `${head} ${detail.output.bytes} bytes ${s3Uri(detail.output)}`;
  if (detail.error !== null) return `${head} ${detail.error.code}: ${detail.error.message}`;
  return head;
}

export function jobSummary(job: JobView): string {
  const lines = [
    `${job.id}  ${job.status}`,
    `  model     ${job.model} (${job.kind}, ${job.mode})`,
    `  source    ${job.source.type}${job.source.key ? ` ${job.source.key}${job.source.line === undefined ? "" : `:${job.source.line}`}` : ""}`,
    `  created   ${job.timings.createdAt}`,
    `  progress  ${job.polls} polls, ${job.attempts.length} upstream attempts${job.upstreamTaskId ? `, upstream ${job.upstreamTaskId}` : ""}`,
  ];
  if (job.timings.finishedAt !== null)
    lines.push(
      `  finished  ${job.timings.finishedAt}${job.timings.totalMs === null ? "" : ` (${seconds(job.timings.totalMs)})`}`,
    );
  for (const output of job.outputs) {
    lines.push(
      `  output    ${s3Uri(output)}`,
      `            ${output.bytes} bytes, ${output.contentType}, sha256 ${output.sha256}`,
    );
  }
  if (job.error !== null) lines.push(`  error     ${job.error.code}: ${job.error.message}`);
  for (const warning of job.warnings)
    lines.push(`  warning   ${warning.path || "(body)"}: ${warning.message} [${warning.code}]`);
  return `${lines.join("\n")}\n`;
}

/** Columns padded to their widest cell; the last column is left ragged. */
export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  const lines = rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
  return `${lines.join("\n")}\n`;
}
