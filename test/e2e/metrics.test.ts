/**
 * GET /metrics on the local stack: Prometheus text behind the admin key, scraped before and after a
 * set of jobs with known outcomes against the simulator, the counters moved by exactly those
 * outcomes: three succeeded (one after a 429 on a poll), one upstream task failed, one cancelled,
 * and one create refused by its key's budget. The scrapes are read with a few lines of parsing
 * here, nothing of reelay's own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METRICS } from "@reelay/core/domain";
import {
  bearer,
  getJson,
  postJson,
  startTestStack,
  type TestStack,
  waitFor,
  waitForTerminalJob,
  OS2_PRICES,
  STACK_START_MS,
} from "./support/stack.ts";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ REELAY_PRICES: OS2_PRICES, REELAY_UPSTREAM_CONCURRENCY: "10" });
}, STACK_START_MS);
afterAll(async () => {
  await stack?.dispose();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

async function scrape(key = stack.apiKey): Promise<Sample[]> {
  const response = await fetch(`${stack.url}/metrics`, { headers: bearer(key) });
  expect(response.status).toBe(200);
  return (await response.text())
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [, name = "", labels = "", value = ""] = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line) ?? [];
      return {
        name,
        labels: Object.fromEntries(
          [...labels.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
        ),
        value: Number(value),
      };
    });
}

/** The value of the sample with exactly these labels, 0 when the series is not there yet. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const same = (a: Record<string, string>) =>
    Object.keys(a).length === Object.keys(labels).length &&
    Object.entries(labels).every(([k, v]) => a[k] === v);
  return samples.find((s) => s.name === name && same(s.labels))?.value ?? 0;
}

async function create(prompt: string, key = stack.apiKey, model = "gamma-3.1") {
  return postJson(`${stack.url}/v1/video/generations`, key, { model, prompt, duration_sec: 4 });
}

describe("GET /metrics on the local stack", () => {
  it("answers 401 without a bearer key or with a wrong one, 403 to a stored key, 200 Prometheus text to the admin key", async () => {
    const none = await fetch(`${stack.url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    expect(await none.json()).toMatchObject({ error: { code: "unauthorized" } });
    const wrong = await fetch(`${stack.url}/metrics`, { headers: bearer("not-the-key") });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: { code: "unauthorized" } });
    const { body: key } = await postJson(`${stack.url}/v1/keys`, stack.apiKey, { name: "scraper" });
    const stored = await fetch(`${stack.url}/metrics`, { headers: bearer(key.key) });
    expect(stored.status).toBe(403);
    expect(await stored.json()).toMatchObject({ error: { code: "scope_missing", scope: "admin" } });
    const admin = await fetch(`${stack.url}/metrics`, { headers: bearer(stack.apiKey) });
    expect(admin.status).toBe(200);
    expect(admin.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await admin.text();
    expect(text).not.toContain(stack.apiKey);
    expect(text).not.toContain(key.key);
  });

  it("declares every metric of the catalog, with its help and type, from the first scrape", async () => {
    const response = await fetch(`${stack.url}/metrics`, { headers: bearer(stack.apiKey) });
    const text = await response.text();
    for (const [name, spec] of Object.entries(METRICS)) {
      expect(text, name).toContain(`# HELP ${name} ${spec.help}`);
      expect(text, name).toContain(`# TYPE ${name} ${spec.kind}`);
    }
    // Admission as it stands, read at the scrape: the configured limit.
    expect(value(await scrape(), "reelay_slots_limit")).toBe(10);
  });

  it("moves the counters by exactly the outcomes of the jobs run between two scrapes", async () => {
    const { body: poor } = await postJson(`${stack.url}/v1/keys`, stack.apiKey, {
      name: "poor",
      budget: { amount: 0.05, unit: "currency", period: "day" },
    });
    const before = await scrape();
    const ids = {
      ok1: (await create("a red bicycle")).body.task_id as string,
      ok2: (await create("a paper boat")).body.task_id as string,
      after429: (await create("a kite [[sim:rate_limit times=1 retry_after=0 on=poll]]")).body
        .task_id as string,
      failed: (await create('a storm [[sim:task_fail reason="the renderer crashed"]]')).body
        .task_id as string,
      cancelled: (await create("a long take [[sim:generation_ms=600000]]")).body.task_id as string,
    };
    const refused = await create("too dear", poor.key, "os-2");
    expect(refused.status).toBe(402);
    await waitFor("the long job to run upstream", async () => {
      const { body } = await getJson(`${stack.url}/v1/jobs/${ids.cancelled}`, stack.apiKey);
      return body.upstreamTaskId === undefined || body.upstreamTaskId === null ? undefined : body;
    });
    const cancel = await postJson(`${stack.url}/v1/jobs/${ids.cancelled}/cancel`, stack.apiKey, {});
    expect(cancel.status).toBe(200);
    const ended: Record<string, any> = Object.fromEntries(
      await Promise.all(
        Object.entries(ids).map(async ([name, id]) => [
          name,
          await waitForTerminalJob(stack.url, stack.apiKey, id),
        ]),
      ),
    );
    expect(Object.fromEntries(Object.entries(ended).map(([k, job]) => [k, job.status]))).toEqual({
      ok1: "succeeded",
      ok2: "succeeded",
      after429: "succeeded",
      failed: "failed",
      cancelled: "cancelled",
    });
    // A job's outcome is counted just after its terminal record and event (emitOnce): wait for
    // five outcomes counted and the slots free, then compare every counter exactly.
    const outcomes = (samples: Sample[]) =>
      ["succeeded", "failed", "cancelled"]
        .flatMap((end) => samples.filter((s) => s.name === `reelay_jobs_${end}_total`))
        .reduce((sum, s) => sum + s.value, 0);
    const ending = outcomes(before);
    const after = await waitFor("the five outcomes counted and the slots free", async () => {
      const samples = await scrape();
      return outcomes(samples) - ending >= 5 && value(samples, "reelay_slots_in_use") === 0
        ? samples
        : undefined;
    });
    const moved = (name: string, labels: Record<string, string> = {}) =>
      value(after, name, labels) - value(before, name, labels);
    const model = { model: "gamma-3.1" };
    expect({
      created: moved("reelay_jobs_created_total", model),
      createdOs2: moved("reelay_jobs_created_total", { model: "os-2" }),
      succeeded: moved("reelay_jobs_succeeded_total", model),
      failed: moved("reelay_jobs_failed_total", { ...model, code: "upstream_task_failed" }),
      cancelled: moved("reelay_jobs_cancelled_total", model),
      durations: moved("reelay_job_duration_seconds_count", model),
      detections: moved("reelay_detection_delay_seconds_count", model),
      creates: moved("reelay_upstream_requests_total", { operation: "create" }),
      downloads: moved("reelay_upstream_requests_total", { operation: "download" }),
      polls429: moved("reelay_upstream_429_total", { operation: "get" }),
      creates429: moved("reelay_upstream_429_total", { operation: "create" }),
      copies: moved("reelay_copy_throughput_bytes_per_second_count"),
      refusals: moved("reelay_budget_refusals_total", { budget: "key" }),
      repairs: after
        .filter((s) => s.name === "reelay_sweep_repairs_total")
        .reduce((sum, s) => sum + s.value, 0),
    }).toEqual({
      created: 5,
      createdOs2: 0,
      succeeded: 3,
      failed: 1,
      cancelled: 1,
      durations: 5,
      detections: 3,
      creates: 5,
      downloads: 3,
      polls429: 1,
      creates429: 0,
      copies: 3,
      refusals: 1,
      repairs: 0,
    });
    const bytes = ["ok1", "ok2", "after429"].reduce(
      (sum, name) => sum + (ended[name].outputs[0].bytes as number),
      0,
    );
    expect(moved("reelay_copied_bytes_total")).toBe(bytes);
    expect(moved("reelay_upstream_requests_total", { operation: "get" })).toBeGreaterThanOrEqual(4);
    expect(value(after, "reelay_queue_depth")).toBe(0);
    expect(value(after, "reelay_queue_oldest_age_seconds")).toBe(0);
  });
});
