/**
 * Ending a job: exactly one terminal event per job. Only the step that won the conditional terminal
 * transition emits, then records eventEmittedAt; a later step that finds the job terminal without
 * it (the winner crashed between write and emit) emits for it. A repeat is possible only if two
 * steps overlap in that window, and carries the same event id, so a consumer can drop it.
 */
import { buildTerminalEvent } from "../../domain/events/types.ts";
import { isReelayError } from "../../domain/errors.ts";
import type { Job } from "../../domain/jobs/types.ts";
import { recordJobEnd } from "../metrics/record-metrics.ts";
import type { BatchTracker } from "../batches/batch-progress.ts";
import type {
  BudgetLedgerPort,
  Clock,
  EventSink,
  JobStorePort,
  Metrics,
  ObjectStorePort,
} from "../ports.ts";
import { manifestKey, manifestOf } from "../../domain/jobs/outputs.ts";
import { retentionTags } from "../../domain/jobs/retention.ts";

/** What ending a job touches: its record, its event, its batch's count, its budget, its metrics. */
export interface TerminalDeps {
  jobs: JobStorePort;
  events: EventSink;
  now: Clock;
  /** Counts a batch job's end toward its batch (NO_BATCHES where there are none). */
  batches: Pick<BatchTracker, "jobEnded">;
  /** Settles the job's budget reservation to what it cost (NO_BUDGETS where there are none). */
  budgets: Pick<BudgetLedgerPort, "settle">;
  metrics: Metrics;
}

/**
 * Emits the job's terminal event unless its record says one went out. Returns the record as it
 * stands after that (eventEmittedAt set), or undefined when another step recorded its emit first.
 */
export async function emitOnce(deps: TerminalDeps, job: Job): Promise<Job | undefined> {
  if (job.eventEmittedAt !== undefined) return job;
  await deps.events.emit(buildTerminalEvent(job));
  try {
    const recorded = await deps.jobs.update(
      job.id,
      { eventEmittedAt: deps.now().toISOString() },
      { unlessSet: "eventEmittedAt" },
    );
    // The one step that recorded the event counts the job for its batch. A count lost to a crash
    // here is made good by the sweep's recount of open batches.
    await deps.batches.jobEnded(recorded).catch(() => undefined);
    // ... and settles its budget reservation, once: the job's cost replaces its estimate.
    await deps.budgets.settle(recorded);
    // ... and counts its outcome, so every path that ends a job is counted once.
    recordJobEnd(deps.metrics, recorded);
    return recorded;
  } catch (error) {
    // Someone recorded it first: the event is out either way.
    if (!isReelayError(error, "job_conflict")) throw error;
    return undefined;
  }
}

/** The job's job.json beside its outputs, from the record as given. */
export async function writeManifest(deps: { objects: ObjectStorePort }, job: Job): Promise<void> {
  const tags = retentionTags(job);
  await deps.objects.putJson(
    manifestKey(job.id),
    manifestOf(job),
    tags === undefined ? {} : { tags },
  );
}
