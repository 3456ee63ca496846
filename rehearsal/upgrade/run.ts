/**
 * An upgrade with jobs in flight, rehearsed: the previous release's template and bundles brought
 * up as a stage (previous.ts), jobs started through its API, and once some have ended and the rest
 * are queued, running or downloading, this checkout's template deployed over it (deploy.ts): the
 * same function names run the current bundles, executions already running keep the old
 * definition. Then every job is waited for and judged (verdict.ts): each ends once, with one
 * terminal event, one upstream task, charged once, and no call denied.
 */
import { isTerminal } from "@reelay/core/domain";
import { rehearsalAssembly } from "../assembly.ts";
import { api, type JsonBody, waitFor } from "../scenarios/support.ts";
import { type Stage, startStage } from "../stage.ts";
import type { DeployEnv } from "../synth.ts";
import { type Deployed, deploy } from "./deploy.ts";
import { type PreviousAssembly, previousAssembly } from "./previous.ts";
import { type UpgradeEvidence, type UpgradeVerdict, upgradeVerdict } from "./verdict.ts";

/** The deployment's budget over every job, so what the ledger says was charged can be read back. */
const BUDGET = JSON.stringify({ amount: 100_000, unit: "currency", period: "total" });
/** A cap on each wait, not a measure: no job comes near it unless something is wrong. */
const PATIENCE_MS = 300_000;

export interface UpgradeOptions {
  /** Jobs started on the previous release (default 16, twice the pool's 8 slots). */
  jobs?: number;
  /** Progress lines. */
  onLine?: (line: string) => void;
  onLog?: (fn: string, line: string) => void;
  /**
   * A fault to show the verdict failing (`--upgrade-fault`): after the deploy, each step function gets the
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

/** Jobs of 8 to about 30 s upstream, more than the pool takes at once: some wait queued. */
async function submit(stage: Stage, count: number): Promise<(string | undefined)[]> {
  const create = async (i: number) => {
    const created = await api(stage, "POST", "/v1/video/generations", {
      model: "gamma-3.1",
      prompt: `an upgrade in flight, job ${i} [[sim:generation_ms=${8_000 + i * 1_500}]]`,
      duration_sec: 4,
    });
    return created.status === 200 ? String(created.body.task_id) : undefined;
  };
  const ids: (string | undefined)[] = [];
  // Four at a time, as a client with a few connections sends them.
  for (let i = 0; i < count; i += 4)
    ids.push(...(await Promise.all([i, i + 1, i + 2, i + 3].filter((n) => n < count).map(create))));
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

/** Times the schedules fire while jobs wait with nothing else under way, before giving up on them. */
const SWEEPS = 5;

/**
 * Until every job has ended, or nothing is left to end them. With no execution running and the
 * stage idle, a job still queued waits for the Dispatch function's scheduled sweep (each minute on
 * AWS): the schedules fire then, a few times at most.
 */
async function settle(stage: Stage, ids: readonly string[]): Promise<void> {
  const deadline = Date.now() + PATIENCE_MS;
  let sweeps = 0;
  for (;;) {
    const found = await records(stage, ids);
    if (ids.every((id) => isTerminal(String(found.get(id)?.status)))) return;
    if (!stage.states.executions().some((e) => e.status === "RUNNING")) {
      await stage.idle();
      if (sweeps === SWEEPS || Date.now() > deadline) return;
      stage.scheduler.tick();
      sweeps += 1;
    }
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

async function evidenceOf(
  stage: Stage,
  jobs: (string | undefined)[],
  endedBeforeDeploy: string[],
): Promise<UpgradeEvidence> {
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
    endedBeforeDeploy,
    ledgerUsed: ledger?.used,
    // A job admitted again runs as `<id>-<n>`: its last execution is the one that counts.
    executions: Object.fromEntries(
      stage.states
        .executions()
        .map((e) => [
          e.name.replace(/-\d+$/, ""),
          `${e.status}${e.error === undefined ? "" : `: ${e.error.slice(0, 200)}`}`,
        ]),
    ),
    denied: stage.gate
      .calls()
      .filter((c) => !c.verdict.allowed)
      .map((c) => `${c.role}: ${c.verdict.decisions.map((d) => d.reason ?? "").join(" ")}`),
  };
}

/**
 * The moment to deploy: once two jobs have ended (the release finished work of its own). A job
 * must still be under way then, or there is nothing in flight to rehearse.
 */
async function midway(stage: Stage, ids: readonly string[]): Promise<Map<string, JsonBody>> {
  const found = await waitFor(
    "two jobs ended",
    async () => {
      const now = await records(stage, ids);
      return ended(statusCounts(now)) >= 2 ? now : undefined;
    },
    PATIENCE_MS,
  );
  if (ended(statusCounts(found)) === ids.length)
    throw new Error(`Every job ended before the deploy: ${JSON.stringify(statusCounts(found))}.`);
  return found;
}

function ended(counts: Record<string, number>): number {
  return Object.entries(counts)
    .filter(([status]) => isTerminal(status))
    .reduce((sum, [, count]) => sum + count, 0);
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
    const before = await midway(stage, ids);
    const atDeploy = statusCounts(before);
    say(`upgrade: deploying this checkout over jobs ${JSON.stringify(atDeploy)}`);
    const deployed = await deploy(stage, current);
    runsFrom(stage, current.assetsDir, "this checkout");
    if (options.renameStepInput === true) renameStepInput(stage);
    say(`upgrade: ${deployed.updated.length} functions swapped; waiting for every job to end`);
    await settle(stage, ids);
    await stage.idle();
    const endedBefore = [...before].filter(([, r]) => isTerminal(String(r.status)));
    const evidence = await evidenceOf(
      stage,
      jobs,
      endedBefore.map(([id]) => id),
    );
    const verdict = upgradeVerdict(evidence);
    return { verdict, release, deployed, atDeploy };
  } finally {
    await stage.close();
  }
}
