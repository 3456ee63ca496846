/**
 * The verdict on an upgrade with jobs in flight, from what the stage recorded:
 *
 *   lost          a submission never acknowledged, no job record, or a job not ended
 *   ended twice   a job with more than one terminal event, or one that disagrees with its record
 *   unannounced   a job ended without a terminal event
 *   duplicate     more than one upstream task for one job (its idempotency key, over every account)
 *   charged       the deployment budget's ledger differs from the sum of the jobs' costs
 *   unexpected    a job under way at the deploy that did not succeed (no fault is asked for: each
 *                 one should); one the release ended before it is the release's own
 *   denied        an AWS call the role's policy refused, before or after the deploy
 *   execution     a job that succeeded while its execution failed (a step after the job's end
 *                 refused its input: the record looks right, the state machine does not)
 */
import { isTerminal } from "@reelay/core/domain";

interface UpgradeRecord {
  status: string;
  idempotencyKey?: string;
  cost: number | null;
  error?: { code?: string; message?: string } | null;
}

export interface UpgradeEvidence {
  /** The job id each submission was answered with (undefined: never acknowledged). */
  jobs: (string | undefined)[];
  records: ReadonlyMap<string, UpgradeRecord>;
  /** Every Generation Succeeded / Failed / Cancelled event the bus took. */
  terminalEvents: { jobId: string; status: string }[];
  /** Upstream tasks made per idempotency key, summed over the pool's accounts. */
  tasksByKey: Record<string, number>;
  /** What the deployment budget's ledger says was charged; undefined when it was not found. */
  ledgerUsed: number | undefined;
  /** Each denied call, described. */
  denied: string[];
  /** The jobs the previous release had already ended when the deploy began. */
  endedBeforeDeploy: readonly string[];
  /** How each job's last execution stands ("FAILED: States.TaskFailed ..."), to say why a job did not end. */
  executions?: Record<string, string>;
}

type FindingKind =
  | "lost"
  | "endedTwice"
  | "unannounced"
  | "duplicate"
  | "charged"
  | "unexpected"
  | "denied"
  | "execution";

export interface UpgradeVerdict {
  ok: boolean;
  jobs: number;
  succeeded: number;
  /** Of them, ended by the release before the deploy. */
  endedBeforeDeploy: number;
  findings: Record<FindingKind, string[]>;
}

/** The findings on one acknowledged job. */
function judgeJob(
  id: string,
  evidence: UpgradeEvidence,
  events: { status: string }[],
  findings: UpgradeVerdict["findings"],
): void {
  const record = evidence.records.get(id);
  if (record === undefined) {
    findings.lost.push(`${id}: no job record`);
    return;
  }
  const execution = evidence.executions?.[id];
  const key = record.idempotencyKey ?? id;
  const tasks = evidence.tasksByKey[key] ?? 0;
  if (tasks > 1) findings.duplicate.push(`${id}: ${tasks} upstream tasks for key ${key}`);
  if (!isTerminal(record.status)) {
    findings.lost.push(
      `${id}: still ${record.status}${execution === undefined ? "" : ` (execution ${execution})`}`,
    );
    return;
  }
  if (events.length === 0) findings.unannounced.push(`${id}: ${record.status} with no event`);
  else if (events.length > 1 || events[0]?.status !== record.status)
    findings.endedTwice.push(
      `${id}: ${record.status} with events [${events.map((e) => e.status).join(", ")}]`,
    );
  if (record.status === "succeeded" && execution?.startsWith("FAILED") === true)
    findings.execution.push(`${id}: succeeded, its execution ${execution}`);
  if (record.status !== "succeeded" && !evidence.endedBeforeDeploy.includes(id))
    findings.unexpected.push(
      `${id}: ${record.status} (${record.error?.code ?? "no code"}${record.error?.message === undefined ? "" : `: ${record.error.message}`})`,
    );
}

/** Costs in millionths, as the ledger counts them. */
const micros = (amount: number) => Math.round(amount * 1e6);

export function upgradeVerdict(evidence: UpgradeEvidence): UpgradeVerdict {
  const findings: UpgradeVerdict["findings"] = {
    lost: [],
    endedTwice: [],
    unannounced: [],
    duplicate: [],
    charged: [],
    unexpected: [],
    denied: [...evidence.denied],
    execution: [],
  };
  const byJob = new Map<string, { status: string }[]>();
  for (const event of evidence.terminalEvents)
    byJob.set(event.jobId, [...(byJob.get(event.jobId) ?? []), event]);
  const ids = evidence.jobs.flatMap((id) => (id === undefined ? [] : [id]));
  const unacknowledged = evidence.jobs.length - ids.length;
  if (unacknowledged > 0) findings.lost.push(`${unacknowledged} submission(s) never acknowledged`);
  for (const id of ids) judgeJob(id, evidence, byJob.get(id) ?? [], findings);
  const costs = ids.reduce((sum, id) => sum + micros(evidence.records.get(id)?.cost ?? 0), 0);
  if (evidence.ledgerUsed === undefined) findings.charged.push("no deployment budget in the usage");
  else if (micros(evidence.ledgerUsed) !== costs)
    findings.charged.push(
      `the ledger holds ${evidence.ledgerUsed}, the jobs cost ${costs / 1e6} in all`,
    );
  const succeeded = ids.filter((id) => evidence.records.get(id)?.status === "succeeded").length;
  const ok = Object.values(findings).every((list) => list.length === 0);
  const before = evidence.endedBeforeDeploy.length;
  return { ok, jobs: evidence.jobs.length, succeeded, endedBeforeDeploy: before, findings };
}

/** The one line the rehearsal prints for the upgrade. */
export function upgradeLine(v: UpgradeVerdict): string {
  const f = v.findings;
  return `upgrade: ${v.jobs} jobs (${v.endedBeforeDeploy} ended before the deploy), ${v.succeeded} succeeded, ${f.lost.length} lost, ${f.endedTwice.length} ended twice, ${f.unannounced.length} unannounced, ${f.duplicate.length} duplicate upstream tasks, ${f.charged.length === 0 ? "0 charged twice" : "charged twice (ledger differs)"}, ${f.unexpected.length} in flight not succeeded, ${f.denied.length} denied calls, ${f.execution.length} failed executions of succeeded jobs`;
}
