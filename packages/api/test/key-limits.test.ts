/**
 * Limits per key through the API, on one dynalite table served by two API instances (two wirings,
 * as two Lambda containers would be): `limits` on POST /v1/keys and the key's views, REELAY_KEY_LIMITS
 * as the default, 429 queue_full for a batch past max_queued with nothing made, 429 rate_limited
 * with Retry-After and RateLimit-* for a key past its rate while another key's calls go on, and one
 * bucket shared by both instances. Jobs go into the admission queue; nothing runs upstream.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { API_KEY, freshTable, testApiDeps, VALID } from "./support/harness.ts";

/** Every stored key made without limits waits behind at most 1000 of its jobs. */
const DEFAULTS = '{"max_queued": 1000}';

let aws: LocalAws;
let apps: ReturnType<typeof createApp>[];
/** Both instances' clock: stopped at `at` while a test sets it, so no call refills a bucket. */
const clock: { at?: number } = {};

function instance(tableName: string): ReturnType<typeof createApp> {
  const { deps, wiring } = testApiDeps(
    aws,
    { tableName, env: { REELAY_KEY_LIMITS: DEFAULTS } },
    { now: () => new Date(clock.at ?? Date.now()) },
  );
  return createApp({ ...deps, starter: wiring.queue });
}

beforeAll(async () => {
  aws = await startLocalAws();
  const tableName = await freshTable(aws, "key-limits");
  apps = [instance(tableName), instance(tableName)];
});
afterAll(() => aws.stop());

type Json = Record<string, any>;

async function call(
  method: string,
  path: string,
  key: string,
  body?: unknown,
  app = apps[0],
): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await (app as ReturnType<typeof createApp>).request(path, {
    method,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    body: (await response.json()) as Json,
    headers: response.headers,
  };
}

async function newKey(limits?: unknown): Promise<{ id: string; key: string; limits: Json }> {
  const made = await call("POST", "/v1/keys", API_KEY, {
    name: "limited",
    ...(limits === undefined ? {} : { limits }),
  });
  expect(made.status).toBe(201);
  return made.body as { id: string; key: string; limits: Json };
}

describe("limits on a key", () => {
  it("are taken on POST /v1/keys and shown on the key's views, each field over REELAY_KEY_LIMITS", async () => {
    const own = await newKey({ rate: 2.5, burst: 10, max_in_flight: 3 });
    expect(own.limits).toEqual({ rate: 2.5, burst: 10, max_queued: 1000, max_in_flight: 3 });
    const none = await newKey({ max_queued: null });
    expect(none.limits).toEqual({ rate: null, burst: null, max_queued: null, max_in_flight: null });
    const plain = await newKey();
    expect(plain.limits).toEqual({
      rate: null,
      burst: null,
      max_queued: 1000,
      max_in_flight: null,
    });
    const listed = await call("GET", "/v1/keys", API_KEY);
    const shown = (listed.body.data as Json[]).find((key) => key.id === own.id);
    expect(shown?.limits).toEqual(own.limits);
  });

  it("a limit it does not know is 400 unknown_field naming it, a bad value 400 invalid_request, and no key is made", async () => {
    const before = (await call("GET", "/v1/keys", API_KEY)).body.data.length;
    const unknown = await call("POST", "/v1/keys", API_KEY, { limits: { max_jobs: 5 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: "unknown_field", path: "limits.max_jobs" });
    for (const limits of [{ burst: 0 }, { max_queued: 2.5 }, { rate: "5" }, [5]]) {
      const bad = await call("POST", "/v1/keys", API_KEY, { limits });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe("invalid_request");
    }
    expect((await call("GET", "/v1/keys", API_KEY)).body.data.length).toBe(before);
  });
});

describe("user_limits on a key", () => {
  it("are taken on POST /v1/keys and shown on its views, every field, null where none", async () => {
    const made = await call("POST", "/v1/keys", API_KEY, {
      user_limits: { max_in_flight: 1, rate: 2, budget: { amount: 5, period: "day" } },
    });
    expect(made.status).toBe(201);
    const shown = {
      rate: 2,
      burst: 2,
      max_queued: null,
      max_in_flight: 1,
      budget: { amount: 5, unit: "currency", period: "day" },
    };
    expect(made.body.user_limits).toEqual(shown);
    const listed = await call("GET", "/v1/keys", API_KEY);
    expect((listed.body.data as Json[]).find((k) => k.id === made.body.id)?.user_limits).toEqual(
      shown,
    );
  });

  it("a field they do not know is 400 unknown_field, a bad value 400 invalid_request, each at its path, and no key is made", async () => {
    const before = (await call("GET", "/v1/keys", API_KEY)).body.data.length;
    const cases: [unknown, string, string][] = [
      [{ max_jobs: 1 }, "unknown_field", "user_limits.max_jobs"],
      [{ max_in_flight: 0 }, "invalid_request", "user_limits.max_in_flight"],
      [{ budget: { amount: -1 } }, "invalid_request", "user_limits.budget.amount"],
      [[1], "invalid_request", "user_limits"],
    ];
    for (const [user_limits, code, path] of cases) {
      const bad = await call("POST", "/v1/keys", API_KEY, { user_limits });
      expect(bad.status, path).toBe(400);
      expect(bad.body.error).toMatchObject({ code, path });
    }
    expect((await call("GET", "/v1/keys", API_KEY)).body.data.length).toBe(before);
  });
});

describe("max_queued", () => {
  it("a key with max_queued 20 and a 50-line batch: 429 queue_full, the batch refused whole, nothing made", async () => {
    const { key } = await newKey({ max_queued: 20 });
    const requests = Array.from({ length: 50 }, (_, i) => ({ ...VALID, prompt: `boat ${i}` }));
    const refused = await call("POST", "/v1/batches", key, { requests });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("queue_full");
    expect((await call("GET", "/v1/batches", key)).body.data).toEqual([]);
    expect((await call("GET", "/v1/jobs", key)).body.data).toEqual([]);
    // The room was not taken by the refusal: 20 fit, and the 21st job is refused.
    const fits = await call("POST", "/v1/batches", key, { requests: requests.slice(0, 20) });
    expect(fits.status).toBe(200);
    const past = await call("POST", "/v1/video/generations", key, VALID);
    expect(past.status).toBe(429);
    expect(past.body.error.code).toBe("queue_full");
    expect((await call("GET", "/v1/jobs?limit=100", key)).body.data).toHaveLength(20);
  });
});

describe("rate and burst", () => {
  it("50 calls in a burst at rate 5, burst 5 get 429 rate_limited with Retry-After; another key's calls that second all answer", async () => {
    const limited = await newKey({ rate: 5, burst: 5 });
    const other = await newKey({ rate: 5, burst: 5 });
    const unlimited = await newKey();
    clock.at = Date.now();
    const [burst, others, free] = await Promise.all([
      Promise.all(Array.from({ length: 50 }, () => call("GET", "/v1/jobs", limited.key))),
      Promise.all(Array.from({ length: 5 }, () => call("GET", "/v1/jobs", other.key))),
      Promise.all(Array.from({ length: 20 }, () => call("GET", "/v1/jobs", unlimited.key))),
    ]);
    clock.at = undefined;
    const ok = burst.filter((answer) => answer.status === 200);
    const refused = burst.filter((answer) => answer.status === 429);
    expect(ok.length + refused.length).toBe(50);
    // All in the same instant: the burst, and not one call more.
    expect(ok).toHaveLength(5);
    for (const answer of refused) {
      expect(answer.body.error.code).toBe("rate_limited");
      expect(Number(answer.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
      expect(answer.headers.get("RateLimit-Limit")).toBe("5");
      expect(answer.headers.get("RateLimit-Remaining")).toBe("0");
    }
    expect(ok[0]?.headers.get("RateLimit-Limit")).toBe("5");
    expect(others.map((answer) => answer.status)).toEqual(Array(5).fill(200));
    expect(free.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(free[0]?.headers.get("RateLimit-Limit")).toBeNull();
  });

  it("two API instances over one table share one bucket: burst 4 is 4 calls across both, not 4 each", async () => {
    const { key } = await newKey({ rate: 1, burst: 4 });
    const statuses: number[] = [];
    clock.at = Date.now();
    for (let i = 0; i < 10; i++)
      statuses.push((await call("GET", "/v1/jobs", key, undefined, apps[i % 2])).status);
    clock.at = undefined;
    expect(statuses.filter((status) => status === 200)).toHaveLength(4);
    expect(statuses.slice(4)).toEqual(Array(6).fill(429));
  });
});

describe("changing a key's limits", () => {
  it("PUT /v1/keys/{id}/limits holds from the key's next call on either instance; DELETE gives it the defaults again", async () => {
    const { id, key } = await newKey();
    const set = await call("PUT", `/v1/keys/${id}/limits`, API_KEY, { rate: 1, burst: 2 });
    expect(set.status).toBe(200);
    expect(set.body.limits).toEqual({ rate: 1, burst: 2, max_queued: 1000, max_in_flight: null });
    clock.at = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await call("GET", "/v1/jobs", key, undefined, apps[i % 2])).status);
    clock.at = undefined;
    expect(statuses).toEqual([200, 200, 429, 429]);

    const removed = await call("DELETE", `/v1/keys/${id}/limits`, API_KEY);
    expect(removed.status).toBe(200);
    expect(removed.body.limits).toEqual({
      rate: null,
      burst: null,
      max_queued: 1000,
      max_in_flight: null,
    });
    clock.at = Date.now();
    const after = await Promise.all(Array.from({ length: 6 }, () => call("GET", "/v1/jobs", key)));
    clock.at = undefined;
    expect(after.map((answer) => answer.status)).toEqual(Array(6).fill(200));
  });

  it("a limit it does not know is 400 unknown_field and the key keeps its limits; another key's id is 404", async () => {
    const { id } = await newKey({ max_queued: 5 });
    const unknown = await call("PUT", `/v1/keys/${id}/limits`, API_KEY, { max_jobs: 5 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: "unknown_field", path: "limits.max_jobs" });
    const listed = (await call("GET", "/v1/keys", API_KEY)).body.data as Json[];
    expect(listed.find((k) => k.id === id)?.limits.max_queued).toBe(5);
    const missing = await call("PUT", "/v1/keys/key_missing/limits", API_KEY, { rate: 1 });
    expect(missing.status).toBe(404);
  });
});
