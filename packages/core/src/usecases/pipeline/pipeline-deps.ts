/** What the pipeline steps need, passed in so the same steps run on Lambda and in the local stack. */
import type {
  BudgetLedgerPort,
  FrameRendererPort,
  GenerationStatsStorePort,
  JobStorePort,
  ObjectStorePort,
  UpstreamClientPort,
  UpstreamPoolPort,
} from "../ports.ts";
import type { AdmissionControl } from "../admission/admission-control.ts";
import type { BatchTracker } from "../batches/batch-progress.ts";
import type { Clock, EventSink, Metrics } from "../ports.ts";
import type { VerifyMode } from "../../domain/media/types.ts";

export interface PipelineDeps {
  jobs: JobStorePort;
  objects: ObjectStorePort;
  /** The one-account form's upstream (and a job that names no account). */
  upstream: UpstreamClientPort;
  /** A pool's clients by account: a job's creates, polls and downloads go to its own account's. */
  upstreams?: UpstreamPoolPort;
  /** REELAY_FALLBACK_ATTEMPTS: tries on other accounts after a task failed (usecases/pipeline/fallback.ts); default 0. */
  fallbackAttempts?: number;
  events: EventSink;
  /** For output downloads: the deployment's guardedFetch (domain/net/policy.ts outputFetchPolicy), never a bare fetch. */
  fetch: typeof fetch;
  /** REELAY_VERIFY: an output that differs from its request is a warning (`warn`, the default) or fails the job (`strict`). */
  verify?: VerifyMode;
  now: Clock;
  /** Decodes videos into their thumbnail and spritesheet: where the Download step runs (absent: a warning). */
  frames?: FrameRendererPort;
  /**
   * The time left in this invocation (Lambda's), where it is bounded: Download makes a video's
   * previews only when they fit, so a long copy never ends in a timeout. Absent: unbounded.
   */
  remainingMs?: () => number;
  /** Config.jobTimeoutS: replaces the per-job deadline formula. */
  jobTimeoutS?: number;
  /** Observed generation times, for the predicted first wait; absent = the plain polling schedule. */
  generationStats?: Pick<GenerationStatsStorePort, "history" | "record">;
  /** How long one Poll keeps looking in-process (policy POLL_WINDOW_MS); absent or 0 = one look per Poll. */
  pollWindowMs?: number;
  /**
   * The Poll window's pause between looks; default setTimeout. A rejection (the process is
   * stopping) ends the window at once; the flow's Wait and next Poll carry on.
   */
  sleep?: (ms: number) => Promise<void>;
  /** Admission control: absent = every job is created upstream at once, with no slots kept. */
  admission?: AdmissionControl;
  /** Counts a batch job's end toward its batch (NO_BATCHES where a test has none). */
  batches: Pick<BatchTracker, "jobEnded">;
  /** Settles an ended job's budget reservation to what it cost (NO_BUDGETS where there are none). */
  budgets: Pick<BudgetLedgerPort, "settle">;
  /** Where the steps' metrics go (usecases/metrics/record-metrics.ts; noMetrics for none). */
  metrics: Metrics;
}

/** For a test or a caller with no batches: a job's end counts toward nothing. */
export const NO_BATCHES: Pick<BatchTracker, "jobEnded"> = { jobEnded: async () => undefined };
