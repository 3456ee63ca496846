/**
 * Budgets at admission: a job queued without a reservation (a batch's line, a drop) reserves its
 * estimate from its key's and the deployment's budgets before it may take a slot. One that does not
 * fit ends failed with budget_exceeded, with its one terminal event, and is never sent upstream.
 *
 *   reserve (conditional writes on the ledgers) -> record the reservations on the job, if unset
 *
 * A crash between the two leaves a reservation no job holds: the budget counts more than was
 * spent, never less. Two dispatchers racing on one job both reserve; the one whose record write
 * loses gives its reservation back.
 */
import type { BudgetLedgerPort, JobStorePort } from "../ports.ts";
import type { ErrorCode } from "../../domain/error-codes.ts";
import { isReelayError, type ReelayError } from "../../domain/errors.ts";
import { isTerminal, type Job } from "../../domain/jobs/types.ts";
import { estimateOfJob } from "../../domain/money/charge.ts";
import type { Reservation } from "../../domain/money/types.ts";
import { emitOnce, type TerminalDeps } from "../jobs/job-end.ts";

export interface BudgetGateDeps extends TerminalDeps {
  jobs: JobStorePort;
  now: () => Date;
  /** NO_BUDGETS where there are none: nothing is claimed. */
  budgets: BudgetLedgerPort;
}

/** The job with its reservations recorded, or undefined when it ended (refused, or ended meanwhile). */
export async function reserveAtAdmission(deps: BudgetGateDeps, job: Job): Promise<Job | undefined> {
  const { budgets } = deps;
  if (job.reservations !== undefined) return job;
  const claims = await budgets.claimsOf(job);
  if (claims.length === 0) return job;
  let reservations: Reservation[];
  try {
    reservations = await budgets.reserve(claims, estimateOfJob(job), deps.now());
  } catch (error) {
    if (!isReelayError(error, "budget_exceeded")) throw error;
    await refuse(deps, job, error);
    return undefined;
  }
  try {
    return await deps.jobs.update(
      job.id,
      { reservations },
      { unlessTerminal: true, unlessSet: "reservations" },
    );
  } catch (error) {
    await budgets.release(reservations);
    if (!isReelayError(error, "job_conflict")) throw error;
    const current = await deps.jobs.get(job.id);
    return current === undefined || isTerminal(current.status) ? undefined : current;
  }
}

async function refuse(deps: BudgetGateDeps, job: Job, refusal: ReelayError): Promise<void> {
  let failed: Job;
  try {
    failed = await deps.jobs.transition(job.id, {
      from: ["queued"],
      to: "failed",
      set: {
        error: { code: "budget_exceeded" satisfies ErrorCode, message: refusal.message },
        finishedAt: deps.now().toISOString(),
      },
      note: "budget exceeded at admission",
    });
  } catch (conflict) {
    // Cancelled meanwhile: that path ended it and announced it.
    if (isReelayError(conflict, "job_conflict")) return;
    throw conflict;
  }
  await emitOnce(deps, failed);
}
