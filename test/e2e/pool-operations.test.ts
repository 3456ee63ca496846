/**
 * The pool as an operator sees it, on the local stack over real simulators: GET /v1/upstreams,
 * the `account` label on /metrics, usage by account, and GET /v1/models merged over the accounts.
 * One account is a URL where nothing listens, so its creates are refused and counted there.
 */
import { randomBytes } from "node:crypto";
import { startSimulator, type Simulator } from "@reelay/simulator";
import { afterEach, describe, expect, it } from "vitest";
import {
  freePort,
  getJson,
  OS2_PRICES,
  postJson,
  startTestStack,
  type TestStack,
  waitForTerminalJob,
} from "./support/stack.ts";

let stack: TestStack | undefined;
let sims: Simulator[] = [];
afterEach(async () => {
  await stack?.dispose();
  stack = undefined;
  await Promise.all(sims.map((sim) => sim.close()));
  sims = [];
});

async function simulator(key: string): Promise<Simulator> {
  const sim = await startSimulator({
    apiKey: key,
    maxConcurrent: 4,
    generationMs: 20_000,
    timeScale: 0.05,
  });
  sims.push(sim);
  return sim;
}

async function metricLines(s: TestStack): Promise<string[]> {
  const response = await fetch(`${s.url}/metrics`, {
    headers: { authorization: `Bearer ${s.apiKey}` },
  });
  return (await response.text()).split("\n");
}

/** The value of the sample written exactly so (name and labels in the registry's order). */
function sample(lines: string[], series: string): number | undefined {
  const line = lines.find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("the pool, the operator's view", { timeout: 180_000 }, () => {
  it("one account: GET /v1/upstreams lists `default` alone, a stored key gets 403, and /metrics adds its account series beside the totals", async () => {
    stack = await startTestStack({ REELAY_UPSTREAM_CONCURRENCY: "3" });
    const { status, body } = await getJson(`${stack.url}/v1/upstreams`, stack.apiKey);
    expect(status).toBe(200);
    expect(body).toMatchObject({ object: "list", routing: "balanced", in_flight: 0, queued: 0 });
    expect(body.data).toEqual([
      {
        name: "default",
        models: null,
        weight: 1,
        state: "closed",
        open_until: null,
        limit: 3,
        limit_source: "configured",
        rate: null,
        held_back_until: null,
        in_flight: 0,
        queue_share: 0,
        recent: { window_s: 900, rate_limited: 0, errors: 0 },
        last_error: null,
      },
    ]);
    const created = await postJson(`${stack.url}/v1/keys`, stack.apiKey, { name: "someone" });
    const other = await getJson(`${stack.url}/v1/upstreams`, created.body.key);
    expect(other.status).toBe(403);
    expect(other.body.error).toMatchObject({ code: "scope_missing", scope: "admin" });
    const lines = await metricLines(stack);
    expect(sample(lines, "reelay_slots_limit")).toBe(3);
    expect(sample(lines, 'reelay_slots_limit{account="default"}')).toBe(3);
    expect(sample(lines, 'reelay_circuit_open{account="default"}')).toBe(0);
  });

  it("a pool with a dead account first: its refused creates are counted on it, jobs fall back from a failing account, usage charges each try where it ran, and models name their accounts", async () => {
    const alphaKey = randomBytes(12).toString("base64url");
    const betaKey = randomBytes(12).toString("base64url");
    const [alpha, beta] = [await simulator(alphaKey), await simulator(betaKey)];
    alpha.setFaults([{ fault: "task_fail", reason: "the generator crashed" }]);
    const deadKey = "sk-dead-account-0123456789";
    const pool = [
      { name: "gamma", url: `http://127.0.0.1:${await freePort()}/v1`, api_key: deadKey },
      // Set limits: ordered routing then sends every job to alpha before any overflows to beta.
      { name: "alpha", url: alpha.url, api_key: alphaKey, concurrency: 4 },
      {
        name: "beta",
        url: beta.url,
        api_key: betaKey,
        models: ["os-2"],
        weight: 2,
        concurrency: 4,
      },
    ];
    stack = await startTestStack({
      REELAY_UPSTREAMS: JSON.stringify(pool),
      REELAY_ROUTING: "ordered",
      REELAY_FALLBACK_ATTEMPTS: "1",
      REELAY_PRICES: OS2_PRICES,
    });
    const s = stack;
    const ids = await Promise.all(
      [1, 2, 3].map(async (n) => {
        const { status, body } = await postJson(`${s.url}/v1/video/generations`, s.apiKey, {
          model: "os-2",
          prompt: `a harbour at dawn, take ${n}`,
          duration_sec: 4,
        });
        expect(status, JSON.stringify(body)).toBe(200);
        return body.task_id as string;
      }),
    );
    const ended = await Promise.all(
      ids.map((id) => waitForTerminalJob(s.url, s.apiKey, id, 150_000)),
    );
    expect(ended.map((job) => job.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    // What each account ran, from the jobs' own attempts: the usage report must say the same.
    const spent = new Map<string, number>();
    for (const id of ids) {
      const { body: job } = await getJson(`${s.url}/v1/jobs/${id}`, s.apiKey);
      for (const attempt of job.attempts)
        spent.set(attempt.account, (spent.get(attempt.account) ?? 0) + attempt.cost);
    }
    expect([...spent.keys()].sort()).toEqual(["alpha", "beta"]);

    const { body: upstreams } = await getJson(`${s.url}/v1/upstreams`, s.apiKey);
    expect(upstreams.routing).toBe("ordered");
    expect(upstreams.data.map((a: any) => [a.name, a.models, a.weight])).toEqual([
      ["gamma", null, 1],
      ["alpha", null, 1],
      ["beta", ["os-2"], 2],
    ]);
    const [gamma, alphaView, betaView] = upstreams.data;
    expect(gamma.recent.errors).toBeGreaterThanOrEqual(1);
    expect(gamma.last_error).toMatchObject({ kind: "error" });
    expect(typeof gamma.last_error.code).toBe("string");
    expect(alphaView.recent).toMatchObject({ rate_limited: 0, errors: 0 });
    expect(betaView).toMatchObject({ state: "closed", last_error: null, in_flight: 0 });
    const shown = JSON.stringify(upstreams);
    for (const secret of [deadKey, alphaKey, betaKey]) expect(shown).not.toContain(secret);
    expect(shown).not.toContain(alpha.url);

    const lines = await metricLines(s);
    const creates = (account: string) =>
      sample(lines, `reelay_upstream_requests_total{operation="create",account="${account}"}`) ?? 0;
    expect(creates("beta")).toBeGreaterThanOrEqual(3);
    expect(creates("alpha")).toBeGreaterThanOrEqual(3);
    expect(sample(lines, 'reelay_upstream_requests_total{operation="create"}')).toBe(
      creates("gamma") + creates("alpha") + creates("beta"),
    );
    expect(
      sample(lines, 'reelay_upstream_errors_total{operation="create",account="gamma"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(lines, 'reelay_slots_limit{account="beta"}')).toBeGreaterThan(0);
    expect(sample(lines, 'reelay_circuit_open{account="alpha"}')).toBe(0);

    const { body: usage } = await getJson(`${s.url}/v1/usage?group_by=account`, s.apiKey);
    expect(usage.group_by).toBe("account");
    const group = (name: string) => usage.groups.find((g: any) => g.group === name);
    // Each job's failed task on alpha is charged there (at its estimate, 0.1); its success on beta there.
    expect(group("alpha")).toMatchObject({ jobs: 0 });
    expect(group("alpha").cost).toBeCloseTo(spent.get("alpha") ?? -1, 6);
    expect(group("alpha").cost).toBeCloseTo(0.3, 6);
    expect(group("beta")).toMatchObject({ jobs: 3, succeeded: 3 });
    expect(group("beta").cost).toBeCloseTo(spent.get("beta") ?? -1, 6);
    expect(group("gamma")).toBeUndefined();
    expect(usage.totals.cost).toBeCloseTo(0.6, 6);

    const { body: models } = await getJson(`${s.url}/v1/models?modality=video`, s.apiKey);
    const item = (id: string) => models.data.find((m: any) => m.id === id);
    expect(item("os-2").accounts).toEqual(["alpha", "beta"]);
    const alphaOnly = models.data.find((m: any) => m.id !== "os-2" && m.accounts.length > 0);
    expect(alphaOnly?.accounts).toEqual(["alpha"]);
    expect(models.warnings).toHaveLength(1);
    expect(models.warnings[0].message).toContain('"gamma"');
  });
});
