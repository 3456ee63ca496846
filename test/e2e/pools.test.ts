/**
 * Upstream pools on the local stack: several simulated accounts (each its own simulator over real
 * HTTP, its own key and cap) behind one reelay (REELAY_UPSTREAMS). Every job is created on one
 * account and only ever polled and downloaded there; the pool carries a batch none of them could
 * alone; with REELAY_FALLBACK_ATTEMPTS a job whose task failed on one account succeeds on another
 * with both attempts recorded, and by default nothing is tried twice.
 */
import { randomBytes } from "node:crypto";
import { startSimulator, type Simulator } from "@reelay/simulator";
import { afterEach, describe, expect, it } from "vitest";
import {
  getJson,
  postJson,
  startTestStack,
  type TestStack,
  waitFor,
  waitForTerminalJob,
} from "./support/stack.ts";

// 20 s generations at a 0.05 time scale: 1 s each.
const SIM = { generationMs: 20_000, timeScale: 0.05 };

interface Account {
  name: string;
  cap: number;
  key: string;
  sim: Simulator;
}

let stack: TestStack | undefined;
let accounts: Account[] = [];
afterEach(async () => {
  await stack?.dispose();
  stack = undefined;
  await Promise.all(accounts.map((a) => a.sim.close()));
  accounts = [];
});

async function startAccounts(caps: Record<string, number>): Promise<Account[]> {
  accounts = await Promise.all(
    Object.entries(caps).map(async ([name, cap]) => {
      const key = randomBytes(12).toString("base64url");
      const sim = await startSimulator({ apiKey: key, maxConcurrent: cap, ...SIM });
      return { name, cap, key, sim };
    }),
  );
  return accounts;
}

function poolEnv(list: Account[], extra: Record<string, unknown>[] = []): string {
  return JSON.stringify(
    list.map((a, i) => ({ name: a.name, url: a.sim.url, api_key: a.key, ...extra[i] })),
  );
}

async function createJob(
  s: TestStack,
  prompt: string,
  model = "os-2",
  duration = 4,
  key = s.apiKey,
): Promise<string> {
  const { status, body } = await postJson(`${s.url}/v1/video/generations`, key, {
    model,
    prompt,
    duration_sec: duration,
  });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.task_id as string;
}

async function runToEnd(s: TestStack, prompt: string): Promise<any> {
  return waitForTerminalJob(s.url, s.apiKey, await createJob(s, prompt));
}

async function jobOf(s: TestStack, id: string): Promise<any> {
  return (await getJson(`${s.url}/v1/jobs/${id}`, s.apiKey)).body;
}

/** Every task each account was asked about is one it made itself. */
function expectPolledOnlyWhereMade(list: Account[]): void {
  for (const { name, sim } of list) {
    const foreign = Object.keys(sim.counters().pollsByTask).filter((id) => !sim.task(id));
    expect(foreign, `tasks polled on ${name} that it did not make`).toEqual([]);
  }
}

describe("upstream pools on the local stack", { timeout: 180_000 }, () => {
  it("a pool of accounts capped 2, 3 and 4 carries 18 jobs (two rounds of their 9 slots): all succeed, each account stays under its cap, every job is polled only on the account that made its task, one task per job over the pool", async () => {
    const list = await startAccounts({ alpha: 2, beta: 3, gamma: 4 });
    stack = await startTestStack({ REELAY_UPSTREAMS: poolEnv(list) });
    const ids = await Promise.all(
      Array.from({ length: 18 }, (_, i) => createJob(stack!, `a harbour, take ${i}`)),
    );
    const ended = await Promise.all(
      ids.map((id) => waitForTerminalJob(stack!.url, stack!.apiKey, id, 150_000)),
    );
    expect(ended.map((job) => job.status)).toEqual(Array(18).fill("succeeded"));
    let tasks = 0;
    for (const { name, cap, sim } of list) {
      const counters = sim.counters();
      expect(counters.peakInFlight, `${name} in flight`).toBeLessThanOrEqual(cap);
      expect(counters.tasksCreated, `${name} took part`).toBeGreaterThan(0);
      tasks += counters.tasksCreated;
    }
    expect(tasks).toBe(18);
    expectPolledOnlyWhereMade(list);
    // Each job names its account, and its task is that account's.
    for (const id of ids) {
      const job = await jobOf(stack, id);
      const account = list.find((a) => a.name === job.upstream?.account);
      expect(account, `${id}'s account`).toBeDefined();
      expect(account?.sim.task(job.upstream.task_id)).toBeDefined();
    }
  });

  it("one simulated account taken down a third of the way through: no job fails, the others carry the queue, its tasks in flight finish there once it is back, no job is created twice", async () => {
    const JOBS = 30;
    stack = await startTestStack(
      {},
      {
        ...SIM,
        accounts: [
          { name: "alpha", cap: 2 },
          { name: "beta", cap: 3 },
          { name: "gamma", cap: 4 },
        ],
      },
    );
    const s = stack;
    const sims = s.simulators ?? {};
    const beta = sims.beta as Simulator;
    const ids = await Promise.all(
      Array.from({ length: JOBS }, (_, i) => createJob(s, `a glacier, take ${i}`)),
    );
    const succeeded = async () => {
      const { body } = await getJson(`${s.url}/v1/jobs?limit=100`, s.apiKey);
      return (body.data as any[]).filter((job) => job.status === "succeeded").length;
    };
    // Beta goes down once a third of the jobs succeeded, at a moment it has tasks running (with 20
    // jobs still to run and 9 slots it mostly has; a snapshot taken just after `down` could catch
    // its tasks between running and downloading). They are polled again there once it is back.
    const inFlight = await waitFor(
      "a third of the jobs to succeed, with tasks on beta",
      async () => {
        const listed = (await getJson(`${s.url}/v1/jobs?limit=100`, s.apiKey)).body.data as any[];
        const done = listed.filter((job) => job.status === "succeeded").length;
        const onBeta = listed
          .filter((job) => job.status === "running" && job.upstream?.account === "beta")
          .map((job) => job.upstreamTaskId as string);
        return done >= JOBS / 3 && onBeta.length > 0 ? onBeta : undefined;
      },
    );
    await beta.down();
    // Its slots are all held by those tasks (their polls fail while it is down), so no create is
    // sent there and its circuit may stay closed; the next test takes an account down with free slots.
    // The other two carry the queue meanwhile.
    const before = await succeeded();
    await waitFor("more jobs to succeed on the other accounts", async () =>
      (await succeeded()) >= Math.min(JOBS - inFlight.length, before + 6) ? true : undefined,
    );
    await beta.up();
    const ended = await Promise.all(
      ids.map((id) => waitForTerminalJob(s.url, s.apiKey, id, 150_000)),
    );
    expect(ended.map((job) => job.status)).toEqual(Array(JOBS).fill("succeeded"));
    let tasks = 0;
    for (const sim of Object.values(sims)) tasks += sim.counters().tasksCreated;
    expect(tasks, "tasks created over the pool").toBe(JOBS);
    for (const taskId of inFlight) {
      const job = ended.find((j) => j.upstreamTaskId === taskId);
      expect(job?.upstream, `the job of ${taskId}`).toEqual({ account: "beta", task_id: taskId });
    }
    expectPolledOnlyWhereMade(
      Object.entries(sims).map(([name, sim]) => ({ name, cap: 0, key: "", sim })),
    );
  });

  it("an account down with free slots: its circuit opens within a few refused creates, no job fails, the others carry every job", async () => {
    const JOBS = 12;
    stack = await startTestStack(
      { REELAY_ROUTING: "ordered" },
      {
        ...SIM,
        setLimits: true,
        accounts: [
          { name: "alpha", cap: 3 },
          { name: "beta", cap: 4 },
        ],
      },
    );
    const s = stack;
    const sims = s.simulators ?? {};
    // alpha is first in the order: every job is offered to it until its circuit opens.
    await sims.alpha?.down();
    const ids = await Promise.all(
      Array.from({ length: JOBS }, (_, i) => createJob(s, `a canyon, take ${i}`)),
    );
    const ended = await Promise.all(ids.map((id) => waitForTerminalJob(s.url, s.apiKey, id)));
    expect(ended.map((job) => job.status)).toEqual(Array(JOBS).fill("succeeded"));
    expect(ended.every((job) => job.upstream.account === "beta")).toBe(true);
    const { body } = await getJson(`${s.url}/v1/upstreams`, s.apiKey);
    const alpha = (body.data as any[]).find((a) => a.name === "alpha");
    expect(alpha.state).not.toBe("closed");
    // Three refused creates open it; a probe or two may follow while the jobs run.
    expect(alpha.recent.errors).toBeGreaterThanOrEqual(3);
    expect(alpha.recent.errors).toBeLessThanOrEqual(6);
    expect(sims.beta?.counters().tasksCreated).toBe(JOBS);
  });

  it("with REELAY_FALLBACK_ATTEMPTS=1 and one account failing every task of a model, those jobs succeed on another account with both attempts recorded, their costs summed and each reserved from the budget; other models stay; a content-policy failure is never tried elsewhere", async () => {
    const list = await startAccounts({ alpha: 4, beta: 4 });
    const [alpha, beta] = list as [Account, Account];
    alpha.sim.setFaults([{ fault: "task_fail", model: "os-2", reason: "the generator crashed" }]);
    // Ordered routing: alpha first, so every job meets the failing account.
    // Limits set (not learned from 2 up), so alpha takes all three at once.
    stack = await startTestStack({
      REELAY_UPSTREAMS: poolEnv(list, [{ concurrency: 4 }, { concurrency: 4 }]),
      REELAY_ROUTING: "ordered",
      REELAY_FALLBACK_ATTEMPTS: "1",
      REELAY_PRICES: JSON.stringify({
        currency: "USD",
        models: { "os-2": { per_second: { default: 0.025 } } },
      }),
    });
    const s = stack;
    // A key with a budget: each attempt reserves its own estimate, and both stay spent.
    const made = await postJson(`${s.url}/v1/keys`, s.apiKey, {
      name: "pool-budget",
      budget: { amount: 10, unit: "currency", period: "day" },
    });
    const ids = await Promise.all(
      [1, 2, 3].map((i) => createJob(s, `a lighthouse, take ${i}`, "os-2", 4, made.body.key)),
    );
    for (const done of await Promise.all(
      ids.map((id) => waitForTerminalJob(s.url, s.apiKey, id)),
    )) {
      expect(done.status).toBe("succeeded");
      expect(done.upstream.account).toBe("beta");
      expect(done.attempts.map((a: any) => [a.account, a.outcome, a.charged])).toEqual([
        ["alpha", "failed", "unknown"],
        ["beta", "succeeded", true],
      ]);
      // 4 s at 0.025 a second, twice: the failed task may have been billed too.
      expect(done.attempts.map((a: any) => a.cost)).toEqual([0.1, 0.1]);
      expect(done.cost).toBeCloseTo(0.2, 9);
    }
    expect(alpha.sim.counters().tasksCreated).toBe(3);
    expect(beta.sim.counters().tasksCreated).toBe(3);
    const keys = (await getJson(`${s.url}/v1/keys`, s.apiKey)).body.data as any[];
    expect(keys.find((k) => k.id === made.body.id).budget.used).toBeCloseTo(0.6, 9);
    // Another model is not failing on alpha: it runs there, once.
    const other = await waitForTerminalJob(
      s.url,
      s.apiKey,
      await createJob(s, "a reef", "gamma-3.1", 8),
    );
    expect([other.status, other.upstream.account, other.attempts.length]).toEqual([
      "succeeded",
      "alpha",
      1,
    ]);
    expectPolledOnlyWhereMade(list);

    // A content-policy failure is never tried elsewhere.
    alpha.sim.setFaults([{ fault: "task_fail", reason: "content policy violation" }]);
    const refused = await runToEnd(s, "a cliff at dusk");
    expect(refused.status).toBe("failed");
    expect(refused.error.class).toBe("content_policy");
    expect(beta.sim.counters().tasksCreated).toBe(3);
  });

  it("with the default REELAY_FALLBACK_ATTEMPTS=0 a failed task is not tried on another account; a model no account serves is refused with 400", async () => {
    const list = await startAccounts({ alpha: 4, beta: 4 });
    const [alpha, beta] = list as [Account, Account];
    alpha.sim.setFaults([{ fault: "task_fail", reason: "the generator crashed" }]);
    const osOnly = { models: ["os-2"] };
    stack = await startTestStack({
      REELAY_UPSTREAMS: poolEnv(list, [osOnly, osOnly]),
      REELAY_ROUTING: "ordered",
    });
    const failed = await runToEnd(stack, "a dune");
    expect(failed.status).toBe("failed");
    expect(alpha.sim.counters().tasksCreated).toBe(1);
    expect(beta.sim.counters().tasksCreated).toBe(0);
    // A model no account serves is refused at the door, with nothing recorded.
    const { status, body } = await postJson(`${stack.url}/v1/video/generations`, stack.apiKey, {
      model: "gamma-3.1",
      prompt: "a reef",
      duration_sec: 8,
    });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: "invalid_request", path: "model" });
    expect(body.error.message).toMatch(/No upstream account/);
  });
});
