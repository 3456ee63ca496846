/**
 * The audit log through the API on dynalite: a run of admin and webhook actions, each listed by
 * GET /v1/audit with its actor and target, no secret in any record, each announced as an `Audit`
 * event on the bus (the local stack's JSONL file), and a log the API cannot change.
 */
import { readFile } from "node:fs/promises";
import { buildTerminalEvent, type Job, SCOPES } from "@reelay/core/domain";
import { AuditStore } from "@reelay/core/adapters";
import { enqueueEvent } from "@reelay/core/usecases";
import { describe, expect, it } from "vitest";
import { AUDITED_ROUTES } from "../src/audit-trail.ts";
import { ROUTE_SCOPES } from "../src/route-scopes.ts";
import { call, type Json, newKey, sharedFullApp } from "./support/full-app.ts";
import { API_KEY, VALID } from "./support/harness.ts";

const app = sharedFullApp();

async function audit(key: string, query = ""): Promise<Json[]> {
  const answer = await call(app(), "GET", `/v1/audit${query}`, key);
  expect(answer.status).toBe(200);
  return answer.body.data as Json[];
}

/** The records made since `since` (an ISO time), oldest first. */
async function since(at: string): Promise<Json[]> {
  return (await audit(API_KEY, `?from=${encodeURIComponent(at)}&limit=100`)).reverse();
}

describe("the audit log", () => {
  it("every audited route is a route of the route table", () => {
    expect(Object.keys(AUDITED_ROUTES).filter((key) => !(key in ROUTE_SCOPES))).toEqual([]);
  });

  it("after a run of admin actions, GET /v1/audit lists each with actor and target, and no secret", async () => {
    const start = new Date().toISOString();
    const made = await call(app(), "POST", "/v1/keys", API_KEY, {
      name: "svc",
      project: "audit-p",
      scopes: [...SCOPES],
      budget: { amount: 10 },
      limits: { max_queued: 20 },
    });
    expect(made.status).toBe(201);
    const key = made.body as Json;
    const other = await newKey(app(), { project: "audit-p", scopes: ["read", "write"] });
    await call(app(), "PUT", `/v1/keys/${key.id}/budget`, API_KEY, { amount: 20 });
    await call(app(), "DELETE", `/v1/keys/${key.id}/budget`, API_KEY);
    const rotatedKey = await call(app(), "POST", `/v1/keys/${key.id}/webhook-secret`, API_KEY);
    const sub = await call(app(), "POST", "/v1/webhooks", key.key, {
      url: "https://example.com/hook?token=abc",
    });
    expect(sub.status).toBe(201);
    const rotatedSub = await call(app(), "POST", `/v1/webhooks/${sub.body.id}/rotate`, key.key);
    await call(app(), "DELETE", `/v1/webhooks/${sub.body.id}`, key.key);
    // A job made by one key, retried by another of the project: recorded; by its maker: not.
    const job = (await call(app(), "POST", "/v1/video/generations", key.key, VALID)).body.task_id;
    await call(app(), "POST", `/v1/jobs/${job}/cancel`, key.key);
    const retried = await call(app(), "POST", `/v1/jobs/${job}/retry`, other.key);
    expect(retried.status).toBe(200);
    const own = (await call(app(), "POST", "/v1/video/generations", key.key, VALID)).body.task_id;
    await call(app(), "POST", `/v1/jobs/${own}/cancel`, key.key);
    expect((await call(app(), "POST", `/v1/jobs/${own}/retry`, key.key)).status).toBe(200);
    await call(app(), "DELETE", `/v1/keys/${other.id}`, API_KEY);

    const records = await since(start);
    const summary = records.map((r) => [r.action, r.actor.key_id, r.target, r.project]);
    expect(summary).toEqual([
      ["key.created", "local", key.id, "audit-p"],
      ["key.created", "local", other.id, "audit-p"],
      ["key.budget_changed", "local", key.id, "audit-p"],
      ["key.budget_changed", "local", key.id, "audit-p"],
      ["key.webhook_secret_rotated", "local", key.id, "audit-p"],
      ["subscriber.added", key.id, sub.body.id, "audit-p"],
      ["subscriber.rotated", key.id, sub.body.id, "audit-p"],
      ["subscriber.removed", key.id, sub.body.id, "audit-p"],
      ["job.retried", other.id, job, "audit-p"],
      ["key.revoked", "local", other.id, "audit-p"],
    ]);
    expect(records[0]?.change).toEqual({
      name: "svc",
      project: "audit-p",
      scopes: [...SCOPES],
      budget: { amount: 10, unit: "currency", period: "month" },
      // The limits as they hold for the key (its own over REELAY_KEY_LIMITS; null = none).
      limits: { rate: null, burst: null, max_queued: 20, max_in_flight: null },
    });
    expect(records[2]?.change).toEqual({
      budget: { amount: 20, unit: "currency", period: "month" },
    });
    expect(records[3]?.change).toEqual({ budget: null });
    expect(records[5]?.change.url).not.toContain("token=abc");
    expect(records[5]?.actor).toEqual({ key_id: key.id, project: "audit-p" });
    expect(records[8]?.change).toEqual({ job: retried.body.id });
    for (const record of records) {
      expect(record.id).toMatch(/^aud_[0-9A-Z]{26}$/);
      expect(Date.parse(record.at)).toBeGreaterThanOrEqual(Date.parse(start));
    }
    const text = JSON.stringify(records);
    for (const secret of [
      key.key,
      other.key,
      key.webhook_secret,
      rotatedKey.body.webhook_secret,
      sub.body.secret,
      rotatedSub.body.secret,
    ]) {
      expect(typeof secret).toBe("string");
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/rk_|whsec_/);
  });

  it("a key's limits set and removed are recorded as key.limits_changed with the limits as they then hold", async () => {
    const start = new Date().toISOString();
    const key = await newKey(app(), { project: "limits-p" });
    await call(app(), "PUT", `/v1/keys/${key.id}/limits`, API_KEY, { rate: 3, max_queued: 9 });
    await call(app(), "DELETE", `/v1/keys/${key.id}/limits`, API_KEY);
    const changes = (await since(start)).filter((r) => r.action === "key.limits_changed");
    expect(changes.map((r) => [r.target, r.project, r.change])).toEqual([
      [key.id, "limits-p", { limits: { rate: 3, burst: 3, max_queued: 9, max_in_flight: null } }],
      [key.id, "limits-p", { limits: null }],
    ]);
  });

  it("a batch retry is recorded when another key than its maker's retries it, not by its maker", async () => {
    const spec = AUDITED_ROUTES["POST /v1/batches/{id}/retry"];
    // A batch retry needs a finished batch with retryable failures; its record needs only the batch.
    const batch = { source: { apiKeyId: "key_maker", project: "audit-b" } };
    const deps = { batches: { get: async () => batch } } as never;
    const answer = { id: "bat_retry", total: 3, counts: { queued: 3 } };
    const by = (keyId: string) =>
      spec?.record({ caller: { keyId, project: "audit-b" }, id: "bat_1", answer, deps });
    expect(await by("key_other")).toEqual({
      target: "bat_1",
      project: "audit-b",
      change: { total: 3, counts: { queued: 3 } },
    });
    expect(await by("key_maker")).toBeUndefined();
  });

  it("a replay and a delivery retry are recorded with the project of the event's job", async () => {
    const key = await newKey(app(), { project: "audit-hooks" });
    const job = (await call(app(), "POST", "/v1/video/generations", key.key, VALID)).body.task_id;
    await call(app(), "POST", `/v1/jobs/${job}/cancel`, key.key);
    const event = buildTerminalEvent((await app().wiring.pipeline.jobs.get(job)) as Job);
    // The event's first delivery, as the outbox records it when the event is emitted.
    const { store } = app().webhooks.api;
    const target = { subscriber: "config:audit", url: "https://example.com/hook" };
    await enqueueEvent(app().webhooks.api, event, [target]);
    const [delivery] = await store.list({ eventId: event.id });
    const start = new Date().toISOString();
    const replayed = await call(app(), "POST", `/v1/events/${event.id}/replay`, API_KEY, {});
    expect(replayed.status).toBe(202);
    const retried = await call(
      app(),
      "POST",
      `/v1/webhooks/deliveries/${delivery?.id}/retry`,
      API_KEY,
    );
    expect(retried.status).toBe(202);
    const records = await since(start);
    expect(records.map((r) => [r.action, r.actor.key_id, r.target, r.project])).toEqual([
      ["event.replayed", "local", event.id, "audit-hooks"],
      ["delivery.retried", "local", delivery?.id, "audit-hooks"],
    ]);
    expect(records[0]?.change).toEqual({
      deliveries: [{ id: replayed.body.data[0].id, subscriber: "config:audit" }],
    });
    expect(records[1]?.change).toEqual({ eventId: event.id, subscriber: "config:audit" });
  });

  it("each record is an Audit event on the bus, and not one of the jobs' events", async () => {
    const start = new Date().toISOString();
    const key = await newKey(app(), { project: "audit-bus" });
    const [record] = await since(start);
    const lines = (await readFile(app().bus.path, "utf8"))
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Json);
    const event = lines.find((line) => line.id === record?.id);
    expect(event).toEqual({
      id: record?.id,
      time: record?.at,
      source: "reelay",
      "detail-type": "Audit",
      detail: record,
    });
    expect(event?.detail.target).toBe(key.id);
    expect((await app().bus.readEvents()).some((e) => e.id === record?.id)).toBe(false);
  });

  it("a refused action records nothing", async () => {
    const start = new Date().toISOString();
    expect((await call(app(), "POST", "/v1/keys", API_KEY, { name: "x", nope: 1 })).status).toBe(
      400,
    );
    expect(
      (await call(app(), "DELETE", "/v1/keys/key_01JD8Z9Q6W4S7Y3K2M1N0P5R8T", API_KEY)).status,
    ).toBe(404);
    const writer = await newKey(app(), { scopes: ["read", "write"] });
    expect((await call(app(), "POST", "/v1/keys", writer.key, {})).status).toBe(403);
    expect((await since(start)).map((r) => r.action)).toEqual(["key.created"]);
  });

  it("the log cannot be changed through the API: no PUT, PATCH, POST or DELETE on it or a record", async () => {
    await newKey(app(), { project: "audit-fixed" });
    const before = await audit(API_KEY);
    const id = before[0]?.id as string;
    for (const method of ["PUT", "PATCH", "POST", "DELETE"]) {
      const whole = await call(app(), method, "/v1/audit", API_KEY, {});
      expect(whole.status, method).toBe(405);
      const one = await call(app(), method, `/v1/audit/${id}`, API_KEY, { action: "x" });
      expect(one.status, method).toBe(404);
    }
    expect(await audit(API_KEY)).toEqual(before);
  });

  it("the store only appends: a record with an id already written is refused", async () => {
    const [record] = await audit(API_KEY);
    const store = new AuditStore(app().db, app().tableName);
    await expect(
      store.append({ ...(record as Json), action: "key.revoked" } as never),
    ).rejects.toThrow(/conditional/i);
    expect((await audit(API_KEY))[0]).toEqual(record);
  });

  it("a project's admin key sees its project's records only; the deployment key sees every one", async () => {
    const p = await newKey(app(), { project: "audit-own", scopes: ["admin"] });
    await newKey(app(), { project: "audit-own" });
    await newKey(app(), { project: "audit-else" });
    const mine = await audit(p.key, "?limit=100");
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(mine.every((r) => r.project === "audit-own")).toBe(true);
    const all = await audit(API_KEY, "?limit=100");
    expect(all.some((r) => r.project === "audit-else")).toBe(true);
    const reader = await newKey(app(), { project: "audit-own", scopes: ["read"] });
    const refused = await call(app(), "GET", "/v1/audit", reader.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "scope_missing", scope: "admin" });
  });

  it("filters by action, from and to, and pages newest first with the cursor", async () => {
    const start = new Date().toISOString();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await newKey(app(), { project: "audit-pages" }));
    await call(app(), "DELETE", `/v1/keys/${made[0]?.id}`, API_KEY);
    const end = new Date(Date.now() + 1).toISOString();
    const window = `from=${encodeURIComponent(start)}&to=${encodeURIComponent(end)}`;
    const created = await audit(API_KEY, `?action=key.created&${window}`);
    expect(created.map((r) => r.target)).toEqual(made.map((k) => k.id).reverse());
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?${window}&limit=2${cursor === null ? "" : `&cursor=${cursor}`}`;
      const page = await call(app(), "GET", `/v1/audit${query}`, API_KEY);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      pages.push(...page.body.data.map((r: Json) => r.action));
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    expect(pages).toEqual(["key.revoked", ...made.map(() => "key.created")]);
    expect(
      (await audit(API_KEY, `?from=${encodeURIComponent(end)}&to=${encodeURIComponent(end)}`))
        .length,
    ).toBe(0);
    for (const bad of ["action=key.deleted", "from=yesterday", "limit=0", "cursor=abc"]) {
      const refused = await call(app(), "GET", `/v1/audit?${bad}`, API_KEY);
      expect(refused.status, bad).toBe(400);
    }
  });
});
