/**
 * Where a batch stands, read from its jobs' records (so the counts are exact and always sum to the
 * total), its results one line per request line, and its completion: once every job has ended, the
 * results file and exactly one Batch Completed event.
 *
 *   job ends (emitOnce) ──ADD ended──> batch  ── ended = jobs ──> marked due ──> dispatcher: complete()
 *   sweep: an open batch whose counter lost a step (a crash) is recounted and completed the same way
 */
import { ulid } from "ulid";
import type { BatchStorePort, JobStorePort, ObjectStorePort } from "../ports.ts";
import type { ErrorCode } from "../../domain/error-codes.ts";
import {
  BATCH_COMPLETED,
  type BatchCompletedEvent,
  EVENT_SOURCE,
} from "../../domain/events/types.ts";
import { isTerminal, type Job, type JobError } from "../../domain/jobs/types.ts";
import { linkTtlS, outputsExpired } from "../../domain/jobs/retention.ts";
import { OBJECT_VERSION_FIELD, SCHEMA_VERSION } from "../../domain/schema-version.ts";
import type { Clock, DispatchWaker, EventSink } from "../ports.ts";
import {
  BATCH_COUNT_KEYS,
  type Batch,
  type BatchCounts,
  type BatchLine,
} from "../../domain/batches/types.ts";

export interface BatchDeps {
  batches: BatchStorePort;
  jobs: JobStorePort;
  objects: ObjectStorePort;
  events: EventSink;
  now: Clock;
}

export function resultsKey(batchId: string): string {
  return `outputs/batches/${batchId}/results.jsonl`;
}

export interface BatchState {
  batch: Batch;
  lines: BatchLine[];
  /** The batch's jobs by id. */
  jobs: Map<string, Job>;
  counts: BatchCounts;
}

function emptyCounts(): BatchCounts {
  return Object.fromEntries(BATCH_COUNT_KEYS.map((key) => [key, 0])) as BatchCounts;
}

export async function batchState(
  deps: Pick<BatchDeps, "batches" | "jobs">,
  batch: Batch,
): Promise<BatchState> {
  const lines = await deps.batches.lines(batch);
  const ids = lines.flatMap((line) => (line.jobId === undefined ? [] : [line.jobId]));
  const jobs = new Map((await deps.jobs.getMany(ids)).map((job) => [job.id, job]));
  const counts = emptyCounts();
  for (const line of lines) {
    const job = line.jobId === undefined ? undefined : jobs.get(line.jobId);
    // A line whose job is not readable yet (being made) counts as queued.
    counts[line.jobId === undefined ? "rejected" : (job?.status ?? "queued")]++;
  }
  return { batch, lines, jobs, counts };
}

function isFinished(state: BatchState): boolean {
  return BATCH_COUNT_KEYS.every(
    (key) => key === "rejected" || isTerminal(key) || state.counts[key] === 0,
  );
}

/** Seconds left at the rate jobs have ended so far; null before the first one ends. */
export function etaSeconds(state: BatchState, now: Date): number | null {
  const ended =
    state.batch.jobs - state.counts.queued - state.counts.running - state.counts.downloading;
  if (state.batch.finishedAt !== undefined) return 0;
  if (ended <= 0) return null;
  const elapsedS = Math.max(1, (now.getTime() - Date.parse(state.batch.createdAt)) / 1000);
  return Math.round(((state.batch.jobs - ended) * elapsedS) / ended);
}

export interface ResultLine {
  line: number;
  job_id: string | null;
  status: string;
  outputs: { bucket: string; key: string; bytes: number; sha256: string; url: string }[];
  error: (JobError & { errors?: unknown }) | null;
  /** When the job's outputs expire (retention_days); null when kept for good or there are none. */
  expires_at: string | null;
  /** True once expires_at has passed: `outputs` is then empty. */
  outputs_expired: boolean;
  /** The job's metadata (the line's own over the batch's); {} for a rejected line or none. */
  metadata: Record<string, string>;
  /** The end user the line's job is for (the line's own, else the batch's); absent when none. */
  user?: string;
}

/** The job's outputs with links that end by its expires_at; none once it passed. */
async function linkedOutputs(
  deps: Pick<BatchDeps, "objects" | "now">,
  job: Job | undefined,
  ttlS: number,
): Promise<ResultLine["outputs"]> {
  if (job?.status !== "succeeded") return [];
  const linkS = linkTtlS(job, ttlS, deps.now());
  if (linkS < 1) return [];
  return Promise.all(
    (job.outputs ?? []).map(async (o) => ({
      bucket: o.bucket,
      key: o.key,
      bytes: o.bytes,
      sha256: o.sha256,
      url: await deps.objects.presignGet(o.key, linkS),
    })),
  );
}

function userOf(user: string | undefined): { user?: string } {
  return user === undefined ? {} : { user };
}

/** One result line per request line, in order; output links are presigned for `ttlS`. */
export async function resultLines(
  deps: Pick<BatchDeps, "objects" | "now">,
  state: BatchState,
  ttlS: number,
): Promise<ResultLine[]> {
  return Promise.all(
    state.lines.map(async (line): Promise<ResultLine> => {
      if (line.jobId === undefined) {
        const first = line.errors?.[0];
        return {
          line: line.line,
          job_id: null,
          status: "rejected",
          outputs: [],
          error: {
            code: "invalid_request" satisfies ErrorCode,
            message: first?.message ?? "The request is not valid.",
            errors: line.errors ?? [],
          },
          expires_at: null,
          outputs_expired: false,
          metadata: {},
          ...userOf(state.batch.user),
        };
      }
      const job = state.jobs.get(line.jobId);
      return {
        line: line.line,
        job_id: line.jobId,
        status: job?.status ?? "queued",
        outputs: await linkedOutputs(deps, job, ttlS),
        error: job?.error ?? null,
        expires_at: job?.expiresAt ?? null,
        outputs_expired: job === undefined ? false : outputsExpired(job, deps.now()),
        metadata: job?.metadata ?? {},
        ...userOf(job?.user ?? state.batch.user),
      };
    }),
  );
}

/** The results file's links live as long as presigned GETs may (7 days). */
const RESULTS_FILE_TTL_S = 7 * 24 * 3600;
/** A claim on a batch's announcement older than this was left by a completer that crashed. */
const ANNOUNCE_CLAIM_MS = 60_000;

/**
 * Completes a batch whose jobs have all ended: finishedAt once, the results file, then the one
 * Batch Completed event (announcedAt). The dispatcher and the sweep may complete the same batch at
 * once: a conditional claim lets one of them announce it, and a claim left by a crash is taken over
 * after a minute. Returns true when the batch is complete or being announced by another.
 */
async function completeBatch(deps: BatchDeps, id: string): Promise<boolean> {
  const batch = await deps.batches.get(id);
  if (batch === undefined) return false;
  if (batch.announcedAt !== undefined) return true;
  const state = await batchState(deps, batch);
  if (!isFinished(state)) return false;
  const now = deps.now();
  const at = now.toISOString();
  const staleBefore = new Date(now.getTime() - ANNOUNCE_CLAIM_MS).toISOString();
  const claim = `${at}#${ulid()}`;
  if (!(await deps.batches.claimAnnouncement(id, claim, staleBefore))) return true;
  await deps.batches.setOnce(id, "finishedAt", at, { ended: batch.jobs });
  const finished = (await deps.batches.get(id)) ?? batch;
  const key = resultsKey(id);
  const lines = await resultLines(deps, state, RESULTS_FILE_TTL_S);
  // The file's lines are the API's, each with the schema version it was written in.
  const text = lines
    .map((line) => `${JSON.stringify({ ...line, [OBJECT_VERSION_FIELD]: SCHEMA_VERSION })}\n`)
    .join("");
  await deps.objects.put(key, text, { contentType: "application/x-ndjson" });
  await deps.events.emit(completedEvent(finished, state, { bucket: deps.objects.bucket, key }));
  await deps.batches.setOnce(id, "announcedAt", deps.now().toISOString());
  return true;
}

function completedEvent(
  batch: Batch,
  state: BatchState,
  results: { bucket: string; key: string },
): BatchCompletedEvent {
  const finishedAt = batch.finishedAt ?? batch.updatedAt;
  return {
    id: `${batch.id}.completed`,
    time: finishedAt,
    source: EVENT_SOURCE,
    "detail-type": BATCH_COMPLETED,
    detail: {
      batchId: batch.id,
      total: batch.total,
      counts: state.counts,
      results,
      createdAt: batch.createdAt,
      finishedAt,
      metadata: batch.metadata ?? {},
    },
  };
}

/** What a job's end means for its batch: counted, and the batch marked due when it was the last. */
export class BatchTracker {
  readonly #deps: Pick<BatchDeps, "batches" | "now"> & { waker: DispatchWaker };

  constructor(deps: Pick<BatchDeps, "batches" | "now"> & { waker: DispatchWaker }) {
    this.#deps = deps;
  }

  async jobEnded(job: Pick<Job, "batchId">): Promise<void> {
    if (job.batchId === undefined) return;
    const batch = await this.#deps.batches.jobEnded(job.batchId, this.#deps.now().toISOString());
    if (batch.ended >= batch.jobs) {
      await this.#deps.batches.markDue(batch.id);
      await this.#deps.waker.wake();
    }
  }
}

/** The dispatcher's part: completes every batch marked due. */
export async function completeDueBatches(deps: BatchDeps): Promise<string[]> {
  const completed: string[] = [];
  for (const id of await deps.batches.due()) {
    if (await completeBatch(deps, id)) completed.push(id);
    await deps.batches.clearDue(id);
  }
  return completed;
}

/** The sweep's part: an open batch whose jobs all ended but was never marked due (a lost count). */
export async function completeStaleBatches(
  deps: BatchDeps,
  olderThanMs: number,
): Promise<string[]> {
  const completed: string[] = [];
  const now = deps.now().getTime();
  for (const batch of await deps.batches.open()) {
    if (now - Date.parse(batch.updatedAt) < olderThanMs && batch.ended < batch.jobs) continue;
    if (await completeBatch(deps, batch.id)) completed.push(batch.id);
  }
  return completed;
}
