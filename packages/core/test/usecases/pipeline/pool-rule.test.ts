/**
 * The pool's rule that never pays twice, each part on its own, with the real parts: dynalite for
 * the jobs table and the accounts' admission items, two simulators over HTTP as accounts alpha and
 * beta, and the steps and the dispatcher called as the state machine and the local stack call them.
 */
import { startSimulator, type FaultRule, type Simulator } from "@reelay/simulator";
import { afterEach, describe, expect, it } from "vitest";
import { AdmissionStore } from "../../../src/adapters/dynamodb/admission-table.ts";
import { JobStore } from "../../../src/adapters/dynamodb/job-table.ts";
import { ObjectStore } from "../../../src/adapters/s3/object-store.ts";
import { UpstreamClient } from "../../../src/adapters/upstream/upstream-client.ts";
import { JsonlFileSink } from "../../../src/adapters/events/jsonl-events.ts";
import { AdmissionControl } from "../../../src/usecases/admission/admission-control.ts";
import { dispatch, type DispatchDeps } from "../../../src/usecases/admission/dispatch.ts";
import type { PipelineDeps } from "../../../src/usecases/pipeline/pipeline-deps.ts";
import { submit } from "../../../src/usecases/pipeline/submit-step.ts";
import { Requeued } from "../../../src/domain/pipeline/step-errors.ts";
import type { Job } from "../../../src/domain/jobs/types.ts";
import type { FlowState } from "../../../src/domain/pipeline/flow-state.ts";
import { startLocalAws, type LocalAws } from "../../support/local-aws.ts";
import { UNWATCHED } from "../../support/unwatched.ts";
import { pollToEnd, queuedJob } from "./harness.ts";
import { join } from "node:path";

const KEYS = { alpha: "sk-alpha", beta: "sk-beta" } as const;
type Name = keyof typeof KEYS;

interface Pool {
  aws: LocalAws;
  sims: Record<Name, Simulator>;
  deps: PipelineDeps & { admission: AdmissionControl };
  dispatchDeps: DispatchDeps;
  /** Jobs whose execution the dispatcher started, in order. */
  started: string[];
}

const running: Pool[] = [];
afterEach(async () => {
  for (const pool of running.splice(0)) {
    await Promise.all(Object.values(pool.sims).map((sim) => sim.close()));
    await pool.aws.stop();
  }
});

async function startPool(
  opts: { alphaKey?: string; fallbackAttempts?: number; jobTimeoutS?: number } = {},
): Promise<Pool> {
  const aws = await startLocalAws();
  const sims = {
    alpha: await startSimulator({ apiKey: KEYS.alpha, timeScale: 0.005, taskIdPrefix: "alpha_" }),
    beta: await startSimulator({ apiKey: KEYS.beta, timeScale: 0.005, taskIdPrefix: "beta_" }),
  };
  const jobs = new JobStore(aws.ddb, aws.tableName);
  const store = new AdmissionStore(aws.ddb, aws.tableName);
  const admission = new AdmissionControl({
    store,
    jobs,
    settings: { queueTimeoutS: 3600 },
    waker: { wake: async () => undefined },
    now: () => new Date(),
    routing: "ordered",
    accounts: (["alpha", "beta"] as const).map((name) => ({
      name,
      store: store.forAccount(name),
      settings: { concurrency: 4 },
      weight: 1,
    })),
  });
  const client = (name: Name, key: string) =>
    new UpstreamClient({
      baseUrl: sims[name].url,
      apiKey: key,
      sleep: async () => undefined,
      maxAttempts: 3,
      timeoutMs: 2_000,
    });
  const clients = {
    alpha: client("alpha", opts.alphaKey ?? KEYS.alpha),
    beta: client("beta", KEYS.beta),
  };
  const deps = {
    jobs,
    objects: new ObjectStore(aws.s3, aws.bucket),
    upstream: clients.alpha,
    upstreams: { client: (name: string) => clients[name as Name] },
    fallbackAttempts: opts.fallbackAttempts ?? 0,
    events: new JsonlFileSink(join(aws.dir, "events.jsonl")),
    fetch: globalThis.fetch,
    now: () => new Date(),
    admission,
    ...(opts.jobTimeoutS === undefined ? {} : { jobTimeoutS: opts.jobTimeoutS }),
    ...UNWATCHED,
  };
  const started: string[] = [];
  const dispatchDeps: DispatchDeps = {
    ...deps,
    starter: { start: async (job) => void started.push(job.id) },
  };
  const pool = { aws, sims, deps, dispatchDeps, started };
  running.push(pool);
  return pool;
}

/** A job queued and admitted by the dispatcher: the account it was admitted to is on its record. */
async function admitted(pool: Pool): Promise<Job> {
  const job = await queuedJob(pool.deps, { model: "os-2", prompt: "a kite", duration_sec: 4 });
  await pool.deps.admission.enqueue(job);
  await dispatch(pool.dispatchDeps);
  return pool.deps.jobs.require(job.id);
}

/** Submit as the state machine runs it: true when the job went back to the queue. */
async function submitted(pool: Pool, jobId: string): Promise<boolean> {
  try {
    await submit(pool.deps, { jobId });
    return false;
  } catch (error) {
    if (error instanceof Requeued) return true;
    throw error;
  }
}

/** Dispatches until the job is admitted again (a refusing account holds creates back a moment). */
async function readmitted(pool: Pool, jobId: string): Promise<Job> {
  for (let i = 0; i < 100; i++) {
    await dispatch(pool.dispatchDeps);
    const job = await pool.deps.jobs.require(jobId);
    if (job.admittedAt !== undefined) return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${jobId} was not admitted again`);
}

/** The flow's state as Submit hands it to the poll loop. */
function runningState(job: Job, maxPolls: number): FlowState {
  return {
    jobId: job.id,
    kind: "video",
    waitSeconds: 0,
    polls: 0,
    maxPolls,
    deadlineAt: job.deadlineAt ?? "",
    outcome: "running",
  };
}

function tasks(pool: Pool): Record<Name, number> {
  return {
    alpha: pool.sims.alpha.counters().tasksCreated,
    beta: pool.sims.beta.counters().tasksCreated,
  };
}

const REFUSALS: [string, FaultRule[] | "down" | "wrong key"][] = [
  // A Retry-After longer than the test: alpha is still held when the job is dispatched again, however
  // slow the machine (with 1 s, a loaded machine let the hold lapse and the job went back to alpha).
  ["a 429", [{ fault: "rate_limit", on: "create", retryAfterS: 30 }]],
  ["a refused connection", "down"],
  ["a 401 for that account's key", "wrong key"],
];

describe("a pool's rule that never pays twice", { timeout: 60_000 }, () => {
  for (const [what, refusal] of REFUSALS) {
    it(`a create the account certainly did not accept (${what}) goes to another account at once`, async () => {
      const pool = await startPool(refusal === "wrong key" ? { alphaKey: "sk-not-alpha" } : {});
      if (refusal === "down") await pool.sims.alpha.down();
      else if (refusal !== "wrong key") pool.sims.alpha.setFaults(refusal);
      const job = await admitted(pool);
      expect(job.upstreamAccount).toBe("alpha");
      expect(await submitted(pool, job.id)).toBe(true);
      const back = await pool.deps.jobs.require(job.id);
      expect(back.status).toBe("queued");
      expect(back.upstreamAccount).toBeUndefined();
      const moved = await readmitted(pool, job.id);
      expect(moved.upstreamAccount).toBe("beta");
      expect(await submitted(pool, job.id)).toBe(false);
      const created = await pool.deps.jobs.require(job.id);
      expect(created.upstreamTaskId).toMatch(/^beta_/);
      expect(tasks(pool)).toEqual({ alpha: 0, beta: 1 });
    });
  }

  it("a create whose answer was lost is retried on the same account with the same key: one task, there", async () => {
    const pool = await startPool();
    // The task is made, then the connection is reset before the answer: twice, then it answers.
    pool.sims.alpha.setFaults([{ fault: "reset", on: "create", after: true, times: 2 }]);
    const job = await admitted(pool);
    expect(await submitted(pool, job.id)).toBe(false);
    const created = await pool.deps.jobs.require(job.id);
    expect(created.upstreamAccount).toBe("alpha");
    expect(created.upstreamTaskId).toMatch(/^alpha_/);
    expect(tasks(pool)).toEqual({ alpha: 1, beta: 0 });
  });

  for (const [what, faults] of [
    [
      "a 5xx after the task was made",
      [{ fault: "server_error", on: "create", after: true, times: 1 }],
    ],
    [
      "a reset after the task was made, then a 429 on the client's own retry",
      [
        { fault: "reset", on: "create", after: true, times: 1 },
        { fault: "rate_limit", on: "create", retryAfterS: 1, times: 1 },
      ],
    ],
  ] as [string, FaultRule[]][]) {
    it(`a create whose outcome is unknown (${what}) is never sent to another account: one task, on the first`, async () => {
      const pool = await startPool();
      pool.sims.alpha.setFaults(faults);
      const job = await admitted(pool);
      // The 429 (if any) puts it back in the queue, pinned to alpha; it is admitted there again.
      while (await submitted(pool, job.id)) {
        const back = await readmitted(pool, job.id);
        expect(back.upstreamAccount).toBe("alpha");
      }
      const created = await pool.deps.jobs.require(job.id);
      expect(created.upstreamTaskId).toMatch(/^alpha_/);
      expect(tasks(pool)).toEqual({ alpha: 1, beta: 0 });
    });
  }

  it("a job whose create may have been accepted stays on that account, even after a 429 there", async () => {
    const pool = await startPool();
    // Every answer lost: the client gives up, the outcome is unknown, the task exists on alpha.
    pool.sims.alpha.setFaults([{ fault: "reset", on: "create", after: true, times: 3 }]);
    const job = await admitted(pool);
    await expect(submit(pool.deps, { jobId: job.id })).rejects.toMatchObject({
      code: "upstream_network",
    });
    expect((await pool.deps.jobs.require(job.id)).upstreamAccount).toBe("alpha");
    // The state machine's retry meets a 429 on alpha: back in the queue, still pinned to alpha.
    pool.sims.alpha.setFaults([{ fault: "rate_limit", on: "create", retryAfterS: 1, times: 1 }]);
    expect(await submitted(pool, job.id)).toBe(true);
    const back = await pool.deps.jobs.require(job.id);
    expect(back.upstreamAccount).toBe("alpha");
    // beta is free, but the job waits for alpha, where its task already is.
    const again = await readmitted(pool, job.id);
    expect(again.upstreamAccount).toBe("alpha");
    expect(await submitted(pool, job.id)).toBe(false);
    expect((await pool.deps.jobs.require(job.id)).upstreamTaskId).toMatch(/^alpha_/);
    expect(tasks(pool)).toEqual({ alpha: 1, beta: 0 });
  });

  it("a task failed on both accounts with REELAY_FALLBACK_ATTEMPTS=2: tried once on each, never twice on one", async () => {
    const pool = await startPool({ fallbackAttempts: 2 });
    for (const sim of Object.values(pool.sims))
      sim.setFaults([{ fault: "task_fail", reason: "the generator crashed" }]);
    const job = await admitted(pool);
    expect(await submitted(pool, job.id)).toBe(false);
    const first = await pool.deps.jobs.require(job.id);
    await expect(pollToEnd(pool.deps, runningState(first, 50))).rejects.toBeInstanceOf(Requeued);
    const moved = await readmitted(pool, job.id);
    expect(moved.upstreamAccount).toBe("beta");
    expect(await submitted(pool, job.id)).toBe(false);
    const second = await pool.deps.jobs.require(job.id);
    const end = await pollToEnd(pool.deps, runningState(second, 50));
    expect(end.outcome).toBe("failed");
    expect((await pool.deps.jobs.require(job.id)).fallbacks?.map((a) => a.account)).toEqual([
      "alpha",
    ]);
    expect(tasks(pool)).toEqual({ alpha: 1, beta: 1 });
  });

  it("a job past its deadline with its task still running is never tried elsewhere", async () => {
    const pool = await startPool({ fallbackAttempts: 1, jobTimeoutS: 1 });
    pool.sims.alpha.setFaults([{ fault: "never_finish" }]);
    const job = await admitted(pool);
    expect(await submitted(pool, job.id)).toBe(false);
    const record = await pool.deps.jobs.require(job.id);
    const end = await pollToEnd(pool.deps, runningState(record, 500), 100);
    expect(end.error?.code).toBe("timeout");
    expect(tasks(pool)).toEqual({ alpha: 1, beta: 0 });
  });

  it("a Submit run again after its requeue was cut short (record written, queue entry not) queues the job and sends no create", async () => {
    const pool = await startPool();
    const job = await admitted(pool);
    // The requeue's first write, then the process died: not admitted, no queue entry.
    await pool.deps.jobs.update(
      job.id,
      {},
      { onlyIfSet: "admittedAt", remove: ["admittedAt"], increment: { refusedSends: 1 } },
    );
    await pool.deps.admission.release(job.id);
    expect(await pool.deps.admission.store.entry(job.id)).toBeUndefined();
    expect(await submitted(pool, job.id)).toBe(true);
    expect(await pool.deps.admission.store.entry(job.id)).toBeDefined();
    expect((await pool.deps.jobs.require(job.id)).attempts).toBe(0);
    expect(pool.sims.alpha.counters().creates + pool.sims.beta.counters().creates).toBe(0);
  });
});
