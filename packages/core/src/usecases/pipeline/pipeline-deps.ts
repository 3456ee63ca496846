/** What the pipeline steps need, passed in so the same steps run on Lambda and in the local stack. */
import type { BudgetLedger } from "../../adapters/dynamodb/budget-ledger.ts";
import type { AdmissionControl } from "../admission/admission-control.ts";
import type { BatchTracker } from "../batches/batch-progress.ts";
import type { Clock, EventSink, Metrics } from "../ports.ts";
import type { GenerationStatsStore } from "../../adapters/dynamodb/generation-stats-table.ts";
import type { JobStore } from "../../adapters/dynamodb/job-table.ts";
import type { ObjectStore } from "../../adapters/s3/object-store.ts";
import type { UpstreamClient } from "../../adapters/upstream/upstream-client.ts";

export interface PipelineDeps {
  jobs: JobStore;
  objects: ObjectStore;
  upstream: UpstreamClient;
  events: EventSink;
  /** For output downloads: the deployment's guardedFetch (net/policy.ts outputFetchPolicy), never a bare fetch. */
  fetch: typeof fetch;
  now: Clock;
  /** Config.jobTimeoutS: replaces the per-job deadline formula. */
  jobTimeoutS?: number;
  /** Observed generation times, for the predicted first wait; absent = the plain polling schedule. */
  generationStats?: Pick<GenerationStatsStore, "history" | "record">;
  /** How long one Poll keeps looking in-process (policy POLL_WINDOW_MS); absent or 0 = one look per Poll. */
  pollWindowMs?: number;
  /**
   * The Poll window's pause between looks; default setTimeout. A rejection (the process is
   * stopping) ends the window at once; the flow's Wait and next Poll carry on.
   */
  sleep?: (ms: number) => Promise<void>;
  /** Admission control: absent = every job is created upstream at once, with no slots kept. */
  admission?: AdmissionControl;
  /** Counts a batch job's end toward its batch; absent = no batches here. */
  batches?: Pick<BatchTracker, "jobEnded">;
  /** Settles an ended job's budget reservation to what it cost (money/budget.ts). */
  budgets?: Pick<BudgetLedger, "settle">;
  /** Where the steps' metrics go (metrics/record.ts); absent = none. */
  metrics?: Metrics;
}

export interface FlowState {
  jobId: string;
  kind: "video" | "image";
  /** Seconds for the next WaitForTask (from the polling policy). */
  waitSeconds: number;
  /** Polls made so far. */
  polls: number;
  /** The loop bound: maxPolls(deadline). */
  maxPolls: number;
  /** ISO time; a Poll past it ends the job failed with code "timeout". */
  deadlineAt: string;
  outcome: "running" | "succeeded" | "failed";
  error?: { code: string; message: string };
  /**
   * Output URLs: an image answered synchronously (no task to poll), or those the look that saw the
   * task done was given (at outputUrlsSeenAt), which Download uses while fresh.
   */
  outputUrls?: string[];
  outputUrlsSeenAt?: string;
  /** Poll freed the job's admission slot when the task ended: Finish and RecordFailure need not again. */
  slotReleased?: boolean;
  /** ISO time the upstream task was last seen running, so a finish can be timed to within a poll interval. */
  runningSeenAt?: string;
}

/** RecordFailure's input: the flow state, where `error` is the poll's verdict or Catch's {Error, Cause}. */
export type FailureInput = Omit<FlowState, "error"> & { error?: unknown };
