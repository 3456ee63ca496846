import type { JobStatus, JobKind, JobSource, Job } from "./types.ts";
import { ReelayError, shownInput } from "../errors.ts";
import { isJobId } from "./ids.ts";
export interface ListFilters {
  status?: JobStatus;
  model?: string;
  kind?: JobKind;
  /** Where the job came from: source.type. */
  source?: JobSource["type"];
  /** Only jobs created with this API key (source.apiKeyId). */
  apiKeyId?: string;
  /** Only jobs of this project (source.project, else the key's own: domain/keys/projects.ts). */
  project?: string;
  /** Only jobs whose outputs expire in [from, to] (ISO times; expiring_within). */
  expiring?: { from: string; to: string };
  /** Only jobs whose metadata holds every one of these pairs (metadata.KEY=VALUE). */
  metadata?: Record<string, string>;
  /** Only jobs made for this end user (user / X-Reelay-User). */
  user?: string;
}

export interface ListOptions extends ListFilters {
  limit?: number;
  cursor?: string;
}

export interface JobPage {
  jobs: Job[];
  /** Pass back to get the next page; absent on the last page. */
  cursor?: string;
}

export interface Transition {
  from: readonly JobStatus[];
  to: JobStatus;
  set?: Partial<Job>;
  note?: string;
  /** The write also needs this list to hold at least one item (Finish: the stored outputs). */
  nonEmpty?: "outputs";
  /** Fields the write removes (a fallback: the failed task's). */
  remove?: readonly (keyof Job)[];
}

export interface UpdateOptions {
  /** Refuse the write when the job is terminal (counters, step bookkeeping). */
  unlessTerminal?: boolean;
  /** Refuse the write when this attribute is already set (write-once fields such as eventEmittedAt). */
  unlessSet?: keyof Job;
  /** Refuse the write unless this attribute is set (admission: only an admitted job is requeued). */
  onlyIfSet?: keyof Job;
  /**
   * Refuse the write for a job that was put back in the queue (refusedSends set) and holds no slot
   * again (admittedAt unset): Submit, run again after a requeue was cut short, must not create.
   */
  unlessRequeued?: boolean;
  /** Refuse the write for a job that reuses another's output (reusedFrom set): it makes no upstream task. */
  unlessReused?: boolean;
  /** Add these numbers to the named counters, atomically. */
  increment?: Partial<Record<"attempts" | "polls" | "admissions" | "refusedSends", number>>;
  /** Remove these attributes in the same write. */
  remove?: (keyof Job)[];
}

/** The id is repeated (shortened and quoted), and given as `jobId` only when it is a job id's shape. */
export function jobNotFound(id: string): ReelayError {
  return new ReelayError("job_not_found", `No job with id ${shownInput(id)}.`, {
    status: 404,
    ...(isJobId(id) ? { details: { jobId: id } } : {}),
  });
}
