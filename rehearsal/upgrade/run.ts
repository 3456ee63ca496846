/**
 * An upgrade with jobs in flight, rehearsed: the previous release's template and bundles brought
 * up as a stage (previous.ts), jobs started through its API, and once some have ended and the rest
 * are queued, running or downloading, this checkout's template deployed over it (deploy.ts): the
 * same function names run the current bundles, executions already running keep the old
 * definition. Then every job is waited for and judged (verdict.ts): each ends once, with one
 * terminal event, one upstream task, charged once, and no call denied.
 */
import { rehearsalAssembly } from "../assembly.ts";
import { api, type JsonBody, waitFor } from "../scenarios/support.ts";
import { type Stage, startStage } from "../stage.ts";
import type { DeployEnv } from "../synth.ts";
import { type Deployed, deploy } from "./deploy.ts";
import { type PreviousAssembly, previousAssembly } from "./previous.ts";
import { type UpgradeEvidence, type UpgradeVerdict, upgradeVerdict } from "./verdict.ts";

/** The deployment's budget over every job, so what the ledger says was charged can be read back. */
const BUDGET = JSON.stringify({ amount: 100_000, unit: "currency", period: "total" });
const TERMINAL = new Set(["succeeded", "failed", "cancelled"]);
/** A cap on each wait, not a measure: no job comes near it unless something is wrong. */
const PATIENCE_MS = 300_000;

export interface UpgradeOptions {
  /** Jobs started on the previous release (default 16, twice the pool's 8 slots). */
  jobs?: number;
  /** Progress lines. */
  onLine?: (line: string) => void;
  onLog?: (fn: string, line: string) => void;
  /**
   * A fault to show the verdict failing, by hand: after the deploy, each step function gets the
   * old definition's input with `jobId` renamed, as a current handler that reads a renamed field
   * would see it.
   */
  renameStepInput?: boolean;
}

export interface UpgradeResult {
  verdict: UpgradeVerdict;
  release: string;
  deployed: Deployed;
  /** The jobs' statuses when the deploy began. */
  atDeploy: Record<string, number>;
}

/** Each job's record as the API shows it now. */
async function records(stage: Stage, ids: readonly string[]): Promise<Map<string, JsonBody>> {
  const found = new Map<string, JsonBody>();
  for (const id of ids) {
    const { status, body } = await api(stage, "GET", `/v1/jobs/${id}`);
    if (status === 200) found.set(id, body);
  }
  return found;
}

function statusCounts(found: Map<string, JsonBody>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const record of found.values()) {
    const status = String(record.status);
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

/** Jobs of 1.5 to about 18 s upstream: more than the pool takes at once, so some wait queued. */
async function submit(stage: Stage, count: number): Promise<(string | undefined)[]> {
  const ids: (string | undefined)[] = [];
  for (let i = 0; i < count; i++) {
    const ms = 1_500 + i * 700;
    const created = await api(stage, "POST", "/v1/video/generations", {
      model: "gamma-3.1",
      prompt: `an upgrade in flight, job ${i} [[sim:generation_ms=${ms}]]`,
      duration_sec: 4,
    });
    ids.push(created.status === 200 ? String(created.body.task_id) : undefined);
  }
  return ids;
}

/** The fault above: the swapped step functions read `job_id` where the old definition passes `jobId`. */
function renameStepInput(stage: Stage): void {
  for (const fn of stage.functions) {
    if (!/^functions\/(submit|poll|download|finish|fail)\./.test(fn.spec.handler)) continue;
    const invoke = fn.lambda.invoke.bind(fn.lambda);
    fn.lambda.invoke = (event) => {
      if (typeof event !== "object" || event === null || !("jobId" in event)) return invoke(event);
      const { jobId, ...rest } = event as { jobId: unknown };
      return invoke({ ...rest, job_id: jobId });
    };
  }
}

/**
 * Until every job has ended, or nothing is left to end them: no execution running and the stage
 * idle (a job still queued then waits for nothing).
 */
async function settle(stage: Stage, ids: readonly string[]): Promise<void> {
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    const found = await records(stage, ids);
    if (ids.every((id) => TERMINAL.has(String(found.get(id)?.status)))) return;
    if (!stage.states.executions().some((e) => e.status === "RUNNING")) {
      await stage.idle();
      const again = await records(stage, ids);
      const running = stage.states.executions().some((e) => e.status === "RUNNING");
      if (!running && JSON.stringify(statusCounts(again)) === JSON.stringify(statusCounts(found)))
        return;
    }
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

async function evidenceOf(stage: Stage, jobs: (string | undefined)[]): Promise<UpgradeEvidence> {
  const ids = jobs.flatMap((id) => (id === undefined ? [] : [id]));
  const found = await records(stage, ids);
  const usage = await api(stage, "GET", "/v1/usage?from=2000-01-01&to=2100-01-01");
  const ledger = (usage.body.budgets as { budget: string; used: number }[] | undefined)?.find(
    (b) => b.budget === "deployment",
  );
  const tasksByKey: Record<string, number> = {};
  for (const simulator of Object.values(stage.sim.simulators))
    for (const [key, n] of Object.entries(simulator.counters().tasksByKey))
      tasksByKey[key] = (tasksByKey[key] ?? 0) + n;
  return {
    jobs,
    records: new Map(
      [...found].map(([id, r]) => [
        id,
        {
          status: String(r.status),
          idempotencyKey: r.idempotencyKey,
          cost: r.cost,
          error: r.error,
        },
      ]),
    ),
    terminalEvents: stage.bus.published().flatMap((e) => {
      const detail = e.detail as { jobId?: string; status?: string };
      return String(e["detail-type"]).startsWith("Generation ") && detail.jobId !== undefined
        ? [{ jobId: detail.jobId, status: String(detail.status) }]
        : [];
    }),
    tasksByKey,
    ledgerUsed: ledger?.used,
    executions: Object.fromEntries(
      stage.states
        .executions()
        .map((e) => [
          e.name,
          `${e.status}${e.error === undefined ? "" : `: ${e.error.slice(0, 200)}`}`,
        ]),
    ),
    denied: stage.gate
      .calls()
      .filter((c) => !c.verdict.allowed)
      .map((c) => `${c.role}: ${c.verdict.decisions.map((d) => d.reason ?? "").join(" ")}`),
  };
}

/** Once some jobs have ended and more are still under way: the moment to deploy. */
async function midway(stage: Stage, ids: readonly string[]): Promise<Record<string, number>> {
  return waitFor(
    "some jobs ended and more in flight",
    async () => {
      const counts = statusCounts(await records(stage, ids));
      const ended = [...TERMINAL].reduce((sum, s) => sum + (counts[s] ?? 0), 0);
      return ended >= 3 && ids.length - ended >= 6 ? counts : undefined;
    },
    PATIENCE_MS,
  );
}

/** Fails unless every function runs from the assembly's bundles. */
function runsFrom(stage: Stage, assetsDir: string, which: string): void {
  const other = stage.functions.filter((f) => !f.spec.codeDir.startsWith(`${assetsDir}/`));
  if (other.length > 0)
    throw new Error(
      `${other.map((f) => f.spec.name).join(", ")} do not run ${which}'s bundles (${assetsDir}).`,
    );
}

export async function rehearseUpgrade(options: UpgradeOptions = {}): Promise<UpgradeResult> {
  const say = options.onLine ?? (() => undefined);
  let env: DeployEnv = {};
  let previous: PreviousAssembly | undefined;
  const stage = await startStage({
    trialAccount: false,
    deployEnv: { REELAY_BUDGET: BUDGET, REELAY_JOB_TIMEOUT_S: "300" },
    ...(options.onLog === undefined ? {} : { onLog: options.onLog }),
    assembly: async (settings) => {
      env = settings;
      previous = await previousAssembly(settings);
      return previous;
    },
  });
  try {
    if (previous === undefined) throw new Error("The stage was not brought up from the release.");
    const release = previous.release.version;
    runsFrom(stage, previous.assetsDir, `release ${release}`);
    // Built before the jobs start, as a deploy's build is: the swap is what meets them in flight.
    const current = await rehearsalAssembly(env);
    say(`upgrade: ${release} up with ${stage.functions.length} functions; starting jobs`);
    const jobs = await submit(stage, options.jobs ?? 16);
    const ids = jobs.flatMap((id) => (id === undefined ? [] : [id]));
    const atDeploy = await midway(stage, ids);
    say(`upgrade: deploying this checkout over jobs ${JSON.stringify(atDeploy)}`);
    const deployed = await deploy(stage, current);
    runsFrom(stage, current.assetsDir, "this checkout");
    if (options.renameStepInput === true) renameStepInput(stage);
    say(`upgrade: ${deployed.updated.length} functions swapped; waiting for every job to end`);
    await settle(stage, ids);
    await stage.idle();
    const verdict = upgradeVerdict(await evidenceOf(stage, jobs));
    return { verdict, release, deployed, atDeploy };
  } finally {
    await stage.close();
  }
}
