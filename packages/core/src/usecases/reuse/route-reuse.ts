/**
 * Where a request with `reuse` gets its output (docs/api.md, reuse), decided before anything is
 * reserved or recorded:
 *
 *   the newest succeeded job with its fingerprint, finished within the max age ──> copy it
 *   else the fingerprint's leader, still in progress ──> wait for it, then copy it (a follower)
 *   else claim the lead (one conditional write) ──won──> make the upstream task as usual
 *                                               ──lost──> read again (another request claimed it)
 *
 * 50 identical requests at once on any number of API instances: one conditional claim wins, the
 * others read its winner as the leader. A leader's claim comes just before its record, so a
 * leader with no record yet is followed while its claim is younger than CLAIM_GRACE_MS; after
 * that it is taken to have been refused (or to have crashed) and the lead is claimed over it. A
 * job that reuses makes no upstream task and reserves no budget; it copies its source's objects
 * into its own outputs/<id>/ (the Poll and Download steps with follow-source.ts).
 */
import { outputsExpired } from "../../domain/jobs/retention.ts";
import { isTerminal, type Job } from "../../domain/jobs/types.ts";
import type { Estimate } from "../../domain/money/types.ts";
import type { JobStorePort } from "../ports.ts";

/** Claims lost in a row before the request goes on as an ordinary job (each loss means another leader). */
const MAX_CLAIMS = 4;

/** How long a claimed leader with no record yet is waited for: its record is written right after the claim. */
export const CLAIM_GRACE_MS = 60_000;

export interface ReuseQuery {
  scope: string;
  fingerprint: string;
  /** The id the new job will have: the leader's, when it wins the claim. */
  jobId: string;
  maxAgeS: number;
  now: Date;
}

/** The job to copy: its id, and its estimate once its record is there (what the copy saves). */
export interface ReuseSource {
  id: string;
  estimate?: Estimate;
}

/** A source worth copying: succeeded with outputs, recently enough. */
function reusable(job: Job | undefined, query: ReuseQuery): job is Job {
  if (job?.status !== "succeeded" || (job.outputs ?? []).length === 0) return false;
  // Past its retention a source's objects are deleted (or about to be): never copied again.
  if (outputsExpired(job, query.now)) return false;
  const at = Date.parse(job.finishedAt ?? job.updatedAt);
  return query.now.getTime() - at <= query.maxAgeS * 1000;
}

function sourceOf(job: Job): ReuseSource {
  return job.estimate === undefined ? { id: job.id } : { id: job.id, estimate: job.estimate };
}

/**
 * The job to reuse (succeeded, or in progress as the leader), or undefined when this request
 * leads: it claimed the fingerprint and makes the upstream task itself.
 */
export async function routeReuse(
  jobs: Pick<JobStorePort, "reuse" | "get">,
  query: ReuseQuery,
): Promise<ReuseSource | undefined> {
  const { scope, fingerprint, jobId, now } = query;
  for (let round = 0; round < MAX_CLAIMS; round++) {
    const entry = await jobs.reuse.read(scope, fingerprint);
    const newest =
      entry?.succeeded === undefined ? undefined : await jobs.get(entry.succeeded.jobId);
    if (reusable(newest, query)) return sourceOf(newest);
    const claim = entry?.leader;
    // A repeat of this very request (its idempotency key) is the leader already.
    if (claim?.jobId === jobId) return undefined;
    const leader = claim === undefined ? undefined : await jobs.get(claim.jobId);
    if (leader !== undefined && !isTerminal(leader.status) && leader.reusedFrom === undefined)
      return sourceOf(leader);
    if (reusable(leader, query)) return sourceOf(leader);
    if (
      claim !== undefined &&
      leader === undefined &&
      now.getTime() - Date.parse(claim.at) < CLAIM_GRACE_MS
    )
      return { id: claim.jobId };
    if (await jobs.reuse.claim(scope, fingerprint, { jobId, at: now.toISOString() }, claim?.jobId))
      return undefined;
  }
  return undefined;
}
