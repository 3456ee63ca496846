/**
 * The soak's verdict, from what can be seen from outside: the job records (API), the terminal
 * events (events.jsonl), the upstream's own account of the tasks it made and the bytes it served
 * (the simulator), and the stored objects' bytes (read back from S3 and hashed).
 *
 *   lost       no record, a record that is terminal without exactly one terminal event, or an
 *              event that disagrees with the record's status; also a submission never acknowledged
 *   duplicate  more than one upstream task made for one job's idempotency key
 *   corrupt    a succeeded job whose stored bytes (or recorded sha256) differ from what the upstream served
 *   stuck      not terminal when the soak stopped waiting (its deadline plus slack)
 *   unexpected ended otherwise than its faults say (transient faults must not fail a job; task_fail
 *              must fail upstream_task_failed, never_finish must fail timeout)
 *   listing    GET /v1/jobs does not show the job exactly once, with its record's status
 *   stray      a listed job or an event no submission asked for (a client retry that made a second job)
 *   usage      GET /v1/usage's totals differ from a recount of the job records (usage-recount.ts)
 * and over a pool of accounts the pool's own checks (pool-verdict.ts).
 */
import { createHash } from "node:crypto";
import type { PlannedJob } from "./plan.ts";
import type { AccountEvidence } from "./pool.ts";
import { fallbacksOf, type PoolTally, poolChecks } from "./pool-verdict.ts";
import { type UsageEvidence, usageDifferences } from "./usage-recount.ts";

const TERMINAL = new Set(["succeeded", "failed", "cancelled"]);

export interface SubmittedJob extends PlannedJob {
  /** The job id the API answered with; undefined when no try was ever acknowledged. */
  jobId: string | undefined;
  /** The batch it was sent in, when it was one line of a POST /v1/batches. */
  batchId?: string;
}

/** A batch as GET /v1/batches/{id} answers it, and its Batch Completed events. */
export interface BatchEvidence {
  id: string;
  total: number;
  counts: Record<string, number>;
  /** The detail of every Batch Completed event for this batch. */
  completed: { counts: Record<string, number> }[];
}

export interface ServedOutput {
  sha256: string;
  bytes: number;
}

export interface Evidence {
  jobs: SubmittedJob[];
  /** Final records by job id (GET /v1/jobs/{id}), of the acknowledged jobs. */
  records: Map<string, any>;
  /** Every entry of the job listing (GET /v1/jobs, all pages). */
  listed: any[];
  /** Every line of events.jsonl. */
  events: {
    "detail-type": string;
    detail: { jobId: string; status: string; outputs?: { sha256: string }[] };
  }[];
  /** Upstream tasks made per idempotency key (the simulator's counters). */
  tasksByKey: Record<string, number>;
  /** What the upstream served for a task, in output order; undefined when it knows no such task. */
  served(taskId: string): ServedOutput[] | undefined;
  /** sha256 and size of the bytes stored for an output (read from S3). */
  stored(output: { url: string | null; bucket: string; key: string }): Promise<ServedOutput>;
  /** Jobs still holding an upstream slot once every job ended (GET /v1/admission). */
  slotsHeld?: string[];
  /** The batches the soak sent. */
  batches?: BatchEvidence[];
  /** GET /v1/usage over every job of the run. */
  usage?: UsageEvidence;
  /** Each account of a pool (`tasksByKey` above is their sum); undefined for one upstream. */
  pool?: AccountEvidence[];
}

interface Finding {
  jobId: string;
  why: string;
}

export interface Verdict {
  jobs: number;
  succeeded: number;
  failedByCode: Record<string, number>;
  lost: Finding[];
  duplicates: Finding[];
  corrupt: Finding[];
  stuck: Finding[];
  unexpected: Finding[];
  listing: Finding[];
  strays: Finding[];
  /** Upstream slots still held after every job ended. */
  leaked: Finding[];
  /** Batches sent; and those whose counts differ from a recount of their jobs' records or whose Batch Completed event is not exactly one with those counts. */
  batches: number;
  miscounted: Finding[];
  /** Where GET /v1/usage differs from a recount of the records; undefined when not checked. */
  usage: Finding[] | undefined;
  /** createdAt -> finishedAt of every terminal job. */
  durationsMs: number[];
  /** Pool only: tasks polled or downloaded on an account that did not make them, attempts naming another account's task. */
  foreign: Finding[];
  /** Pool only: tasks the upstream made that no attempt on record names. */
  unrecorded: Finding[];
  /** Pool only: tasks over all accounts against jobs and fallbacks on record. */
  pool: PoolTally | undefined;
}

function outcomeOf(record: any): string {
  return record.status === "succeeded" ? "succeeded" : (record.error?.code ?? record.status);
}

async function corruptionOf(
  record: any,
  evidence: Evidence,
  event: Evidence["events"][number] | undefined,
): Promise<string | undefined> {
  const outputs: any[] = record.outputs ?? [];
  if (outputs.length === 0) return "succeeded without a stored output";
  const served =
    record.upstreamTaskId === null ? undefined : evidence.served(record.upstreamTaskId);
  if (served === undefined) return `the upstream knows no task ${record.upstreamTaskId}`;
  if (served.length !== outputs.length && record.kind === "image")
    return `${outputs.length} outputs stored, ${served.length} served`;
  for (const [i, output] of outputs.entries()) {
    const want = served[i];
    if (want === undefined) return `output ${i} was never served`;
    const got = await evidence.stored(output);
    if (got.sha256 !== want.sha256 || got.bytes !== want.bytes) {
      return `${output.key}: stored ${got.bytes} bytes sha256 ${got.sha256.slice(0, 12)}, served ${want.bytes} bytes sha256 ${want.sha256.slice(0, 12)}`;
    }
    if (output.sha256 !== want.sha256)
      return `${output.key}: the record says sha256 ${String(output.sha256).slice(0, 12)}, served ${want.sha256.slice(0, 12)}`;
    // A missing event is counted as lost, not again here.
    const announced = event === undefined ? want.sha256 : event.detail.outputs?.[i]?.sha256;
    if (announced !== want.sha256)
      return `${output.key}: the event says sha256 ${String(announced).slice(0, 12)}, served ${want.sha256.slice(0, 12)}`;
  }
  return undefined;
}

function sameCounts(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => (a[key] ?? 0) === (b[key] ?? 0));
}

const shownCounts = (counts: Record<string, number>) =>
  JSON.stringify(Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0)));

/** Why a batch's counts or its Batch Completed event disagree with its jobs' records; undefined when they agree. */
function miscount(batch: BatchEvidence, evidence: Evidence): string | undefined {
  const members = evidence.jobs.filter((job) => job.batchId === batch.id);
  const recount: Record<string, number> = { rejected: batch.total - members.length };
  for (const job of members) {
    const status = evidence.records.get(job.jobId ?? "")?.status ?? "missing";
    recount[status] = (recount[status] ?? 0) + 1;
  }
  if (!sameCounts(batch.counts, recount))
    return `counts ${shownCounts(batch.counts)}, a recount of its jobs ${shownCounts(recount)}`;
  if (batch.completed.length !== 1)
    return `${batch.completed.length} Batch Completed events (one expected)`;
  const announced = batch.completed[0]!.counts;
  if (!sameCounts(announced, recount))
    return `its Batch Completed event says ${shownCounts(announced)}, a recount ${shownCounts(recount)}`;
  return undefined;
}

export async function verify(evidence: Evidence): Promise<Verdict> {
  const verdict: Verdict = {
    jobs: evidence.jobs.length,
    succeeded: 0,
    failedByCode: {},
    lost: [],
    duplicates: [],
    corrupt: [],
    stuck: [],
    unexpected: [],
    listing: [],
    strays: [],
    leaked: (evidence.slotsHeld ?? []).map((jobId) => ({
      jobId,
      why: "holds an upstream slot after every job ended",
    })),
    batches: evidence.batches?.length ?? 0,
    miscounted: (evidence.batches ?? []).flatMap((batch) => {
      const why = miscount(batch, evidence);
      return why === undefined ? [] : [{ jobId: batch.id, why }];
    }),
    usage:
      evidence.usage === undefined
        ? undefined
        : usageDifferences(evidence.usage, [...evidence.records.values()]).map((why) => ({
            jobId: "usage",
            why,
          })),
    durationsMs: [],
    foreign: [],
    unrecorded: [],
    pool: undefined,
  };
  const eventsByJob = new Map<string, Evidence["events"]>();
  for (const event of evidence.events) {
    const list = eventsByJob.get(event.detail.jobId) ?? [];
    list.push(event);
    eventsByJob.set(event.detail.jobId, list);
  }
  const ours = new Set<string>();
  for (const job of evidence.jobs) {
    if (job.jobId === undefined) {
      verdict.lost.push({ jobId: job.key, why: "the submission was never acknowledged" });
      continue;
    }
    const id = job.jobId;
    ours.add(id);
    const record = evidence.records.get(id);
    if (record === undefined) {
      verdict.lost.push({ jobId: id, why: "no job record" });
      continue;
    }
    // A job tried again on another account after its task failed made one task per attempt.
    const tasks = evidence.tasksByKey[record.idempotencyKey] ?? 0;
    if (tasks > 1 + fallbacksOf(record) && evidence.pool === undefined)
      verdict.duplicates.push({
        jobId: id,
        why: `${tasks} upstream tasks for key ${record.idempotencyKey}`,
      });
    if (!TERMINAL.has(record.status)) {
      verdict.stuck.push({
        jobId: id,
        why: `still ${record.status} (deadline ${record.timings?.deadlineAt ?? "none"})`,
      });
      continue;
    }
    const events = eventsByJob.get(id) ?? [];
    const matching = events.filter((event) => event.detail.status === record.status);
    if (events.length !== 1 || matching.length !== 1) {
      verdict.lost.push({
        jobId: id,
        why: `${record.status} with ${events.length} terminal event(s) [${events.map((e) => e["detail-type"]).join(", ")}]`,
      });
    }
    const outcome = outcomeOf(record);
    if (record.status === "succeeded") verdict.succeeded++;
    else verdict.failedByCode[outcome] = (verdict.failedByCode[outcome] ?? 0) + 1;
    if (outcome !== job.expect) {
      verdict.unexpected.push({
        jobId: id,
        why: `expected ${job.expect} (fault ${job.fault ?? "none"}), got ${outcome}: ${record.error?.message ?? ""}`,
      });
    }
    if (typeof record.timings?.totalMs === "number")
      verdict.durationsMs.push(record.timings.totalMs);
    if (record.status === "succeeded") {
      const why = await corruptionOf(record, evidence, matching[0]).catch(
        (error: unknown) => `the stored output could not be read: ${String(error)}`,
      );
      if (why !== undefined) verdict.corrupt.push({ jobId: id, why });
    }
  }
  const listedById = new Map<string, any[]>();
  for (const entry of evidence.listed)
    listedById.set(entry.id, [...(listedById.get(entry.id) ?? []), entry]);
  for (const [id, record] of evidence.records) {
    const entries = listedById.get(id) ?? [];
    // A job still moving may change between the two reads; it is counted stuck anyway.
    if (
      entries.length !== 1 ||
      (TERMINAL.has(record.status) && entries[0].status !== record.status)
    ) {
      verdict.listing.push({
        jobId: id,
        why: `the record says ${record.status}, the listing [${entries.map((e) => e.status).join(", ")}]`,
      });
    }
  }
  for (const id of listedById.keys())
    if (!ours.has(id))
      verdict.strays.push({ jobId: id, why: "a listed job no submission asked for" });
  for (const id of eventsByJob.keys())
    if (!ours.has(id) && !listedById.has(id))
      verdict.strays.push({ jobId: id, why: "an event for no known job" });
  if (evidence.pool !== undefined) {
    const pool = poolChecks(evidence.records.values(), evidence.pool);
    verdict.duplicates.push(...pool.duplicates);
    verdict.unrecorded.push(...pool.unrecorded);
    verdict.foreign.push(...pool.foreign);
    // Counted per account (GET /v1/admission `accounts`), whose held slots make up `held`.
    verdict.leaked = pool.leaked;
    verdict.pool = pool.tally;
  }
  return verdict;
}

/** True when the soak found nothing wrong. */
export function clean(v: Verdict): boolean {
  return Object.values(findingsOf(v)).every((list) => list.length === 0);
}

/** Every kind of finding by its name (usage not checked counts as none). */
export function findingsOf(v: Verdict): Record<string, Finding[]> {
  const { lost, duplicates, corrupt, stuck, unexpected, listing, strays, leaked, miscounted } = v;
  const { foreign, unrecorded } = v;
  return {
    lost,
    duplicates,
    corrupt,
    stuck,
    unexpected,
    listing,
    strays,
    leaked,
    miscounted,
    usage: v.usage ?? [],
    foreign,
    unrecorded,
  };
}

export function percentile(values: number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The one line the soak prints on stdout. */
export function summaryLine(v: Verdict): string {
  const failed = Object.values(v.failedByCode).reduce((a, b) => a + b, 0);
  const codes = Object.entries(v.failedByCode)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, n]) => `${code}: ${n}`)
    .join(", ");
  const usage =
    v.usage === undefined
      ? ""
      : v.usage.length === 0
        ? ", usage = recount"
        : `, usage differs from a recount (${v.usage.length})`;
  const pool =
    v.pool === undefined
      ? ""
      : `; pool of ${v.pool.accounts} accounts: ${v.pool.tasks} tasks ${v.pool.tasks === v.pool.jobs + v.pool.fallbacks ? "=" : "!="} ${v.pool.jobs} jobs + ${v.pool.fallbacks} fallbacks, ${v.unrecorded.length} unrecorded tasks, ${v.foreign.length} foreign polls`;
  return `soak: ${v.jobs} jobs, ${v.succeeded} succeeded, ${failed} failed {${codes}}, ${v.lost.length} lost, ${v.duplicates.length} duplicate upstream tasks, ${v.corrupt.length} corrupt outputs, ${v.stuck.length} stuck, ${v.leaked.length} slots leaked, ${v.batches} batches (${v.miscounted.length} miscounted)${usage}${pool}`;
}

/** Streams a URL's body through sha256. */
export async function hashUrl(url: string): Promise<ServedOutput> {
  const response = await fetch(url);
  if (!response.ok || response.body === null)
    throw new Error(`GET ${url.split("?")[0]} answered ${response.status}`);
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest("hex"), bytes };
}
