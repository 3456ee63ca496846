/**
 * Durable deliveries against dynalite and a real receiver: the outbox records them, the sweep sends
 * what is due on the schedule and logs every attempt, retry and replay make more. The clock is the
 * test's, so "the schedule's next wait has passed" is a step of the test, not a sleep.
 */
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { JobStore } from "../../../src/adapters/dynamodb/job-table.ts";
import { enqueueEvent } from "../../../src/usecases/webhooks/outbox.ts";
import { replay } from "../../../src/usecases/webhooks/replay.ts";
import { parseSchedule, scheduledWaitMs } from "../../../src/domain/webhooks/schedule.ts";
import {
  purgeDeliveries,
  type DeliverySweepDeps,
  sweepDeliveries,
} from "../../../src/usecases/webhooks/delivery-sweep.ts";
import type { WebhookSubscriber } from "../../../src/domain/webhooks/subscribers.ts";
import {
  allTargets,
  subscriberKey,
  targetOf,
  targetsFor,
} from "../../../src/usecases/webhooks/targets.ts";
import { wireWebhooks } from "../../../src/wiring/wire-webhooks.ts";
import type { Metrics } from "../../../src/usecases/ports.ts";
import { signWebhook } from "../../../src/domain/webhooks/sign.ts";
import { startLocalAws, type LocalAws } from "../../support/local-aws.ts";
import { recordingMetrics } from "../../support/recording-metrics.ts";
import { event } from "./fixtures.ts";
import { startReceiver, type Receiver } from "./receiver.ts";

const secret = `whsec_${randomBytes(24).toString("base64")}`;
let aws: LocalAws;
let table = 0;
const receivers: Receiver[] = [];

beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver(
  statusFor: (n: number, webhookId: string) => number,
  answerFor?: (n: number) => string,
) {
  const started = await startReceiver(statusFor, answerFor);
  receivers.push(started);
  return started;
}

/**
 * A fresh table, a clock the test moves, and the sweep's deps for these subscribers (the REELAY_WEBHOOKS
 * ones only), wired as the local stack wires them.
 */
async function setup(subscribers: WebhookSubscriber[], schedule: number[], metrics?: Metrics) {
  const tableName = `deliveries-${++table}`;
  const { ensureTable } = await import("../../../../local/src/dynalite/table.ts");
  await ensureTable(aws.ddb, tableName);
  // Real time to start from: receivers reject signatures with a stale timestamp.
  const clock = { now: new Date() };
  const wired = wireWebhooks({
    config: { webhookSchedule: schedule, aws: { rehearsal: false } },
    platform: "local",
    clients: { db: aws.ddb, tableName },
    ...(metrics === undefined ? {} : { metrics }),
    now: () => clock.now,
  });
  const deps: DeliverySweepDeps = {
    ...wired.deliveries,
    subscribers: { config: subscribers },
    // No jitter: the waits are exactly the schedule's.
    random: () => 0.5,
  };
  const advance = (seconds: number) => {
    clock.now = new Date(clock.now.getTime() + seconds * 1000);
  };
  const managed = wired.api.managed.store;
  return { deps, advance, managed, jobs: new JobStore(aws.ddb, tableName) };
}

function verify(request: Receiver["received"][number], key = secret): unknown {
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([k, v]) => [k, String(v)]),
  );
  return new Webhook(key).verify(request.body, headers);
}

describe("delivery metrics", () => {
  it("counts each attempt by outcome once it is on record, every attempt after the first as a retry, and a delivery out of attempts as a dead letter", async () => {
    const metrics = recordingMetrics();
    const flaky = await receiver((n) => (n === 1 ? 503 : 200));
    const down = await receiver(() => 500);
    const { deps: metered, advance } = await setup(
      [
        { url: flaky.url, secret },
        { url: down.url, secret },
      ],
      [0, 5],
      metrics,
    );
    await enqueueEvent(metered, event, metered.subscribers.config.map(targetOf));
    await sweepDeliveries(metered);
    advance(5);
    await sweepDeliveries(metered);
    expect({
      delivered: metrics.total("reelay_webhook_deliveries_total", { outcome: "delivered" }),
      failed: metrics.total("reelay_webhook_deliveries_total", { outcome: "failed" }),
      retries: metrics.total("reelay_webhook_retries_total"),
      dead: metrics.total("reelay_webhook_dead_letters_total"),
    }).toEqual({ delivered: 1, failed: 3, retries: 2, dead: 1 });
  });
});

describe("REELAY_WEBHOOK_SCHEDULE", () => {
  it("parses waits in seconds and refuses a negative, empty or non-numeric wait", () => {
    expect(parseSchedule("0, 5,300", "S")).toEqual([0, 5, 300]);
    for (const bad of ["", "1,,2", "-1", "soon", "1,9999999"])
      expect(() => parseSchedule(bad, "S"), bad).toThrow(/S must be/);
  });

  it("jitters each wait by at most 10 % and ends after the last one", () => {
    expect(scheduledWaitMs([0, 300], 2, () => 0)).toBe(270_000);
    expect(scheduledWaitMs([0, 300], 2, () => 1)).toBe(330_000);
    expect(scheduledWaitMs([0, 300], 1, () => 1)).toBe(0);
    expect(scheduledWaitMs([0, 300], 3)).toBeUndefined();
  });
});

describe("durable webhook deliveries", () => {
  it("a receiver answering 503 five times gets the event on the sixth attempt: one delivery, six attempts logged, one webhook-id", async () => {
    const hook = await receiver(
      (n) => (n <= 5 ? 503 : 200),
      (n) => (n <= 5 ? `down ${secret}` : "ok"),
    );
    const { deps, advance } = await setup([{ url: hook.url, secret }], [0, 1, 1, 1, 1, 1]);
    expect(await enqueueEvent(deps, event, deps.subscribers.config.map(targetOf))).toBe(1);
    for (let attempt = 1; attempt <= 6; attempt++) {
      expect(await sweepDeliveries(deps)).toMatchObject({ attempted: 1 });
      // Not due again until the next wait has passed.
      expect(await sweepDeliveries(deps)).toMatchObject({ attempted: 0 });
      advance(1);
    }
    expect(await sweepDeliveries(deps)).toMatchObject({ attempted: 0 });
    expect(hook.received.map((r) => r.status)).toEqual([503, 503, 503, 503, 503, 200]);
    expect(new Set(hook.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([event.id]));
    for (const request of hook.received) expect(() => verify(request)).not.toThrow();
    const [delivery, ...others] = await deps.store.list({ eventId: event.id });
    expect(others).toEqual([]);
    expect(delivery).toMatchObject({ status: "delivered", eventId: event.id });
    expect(delivery?.attempts.map((a) => a.status)).toEqual([503, 503, 503, 503, 503, 200]);
    expect(delivery?.attempts[0]?.response).toBe("down [secret]");
    expect(delivery?.attempts[5]?.response).toBe("ok");
    expect(JSON.stringify(delivery)).not.toContain(secret.slice(6));
  });

  it("enqueueing the same event twice records one delivery per subscriber", async () => {
    const { deps } = await setup(
      [
        { url: "http://127.0.0.1:9/a", secret },
        { url: "http://127.0.0.1:9/b", secret },
      ],
      [0],
    );
    expect(await enqueueEvent(deps, event, deps.subscribers.config.map(targetOf))).toBe(2);
    expect(await enqueueEvent(deps, event, deps.subscribers.config.map(targetOf))).toBe(0);
    expect(await deps.store.list({ status: "pending" })).toHaveLength(2);
  });

  it("keeps only the first 1 KB of an answer", async () => {
    const hook = await receiver(
      () => 200,
      () => "x".repeat(5000),
    );
    const { deps } = await setup([{ url: hook.url, secret }], [0]);
    await enqueueEvent(deps, event, deps.subscribers.config.map(targetOf));
    await sweepDeliveries(deps);
    const [delivery] = await deps.store.list();
    expect(delivery?.attempts[0]?.response).toHaveLength(1024);
  });

  it("is dead when the schedule is spent; a retry makes exactly one more attempt", async () => {
    const hook = await receiver((n) => (n <= 2 ? 500 : 200));
    const { deps, advance } = await setup([{ url: hook.url, secret }], [0, 5]);
    await enqueueEvent(deps, event, deps.subscribers.config.map(targetOf));
    await sweepDeliveries(deps);
    advance(5);
    await sweepDeliveries(deps);
    const [dead] = await deps.store.list({ status: "dead" });
    expect(dead?.attempts.map((a) => a.status)).toEqual([500, 500]);
    await deps.store.retry(dead?.id as string, deps.now());
    expect(await sweepDeliveries(deps)).toMatchObject({ attempted: 1 });
    const after = await deps.store.get(dead?.id as string);
    expect(after?.status).toBe("delivered");
    expect(after?.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(hook.received.map((r) => r.headers["webhook-id"])).toEqual([
      event.id,
      event.id,
      event.id,
    ]);
  });

  it("a delivery to a subscriber no longer configured is dead, and says why", async () => {
    const { deps } = await setup([{ url: "http://127.0.0.1:9/gone", secret }], [0]);
    await enqueueEvent(deps, event, deps.subscribers.config.map(targetOf));
    await sweepDeliveries({ ...deps, subscribers: { config: [] } });
    const [dead] = await deps.store.list({ status: "dead" });
    expect(dead?.attempts[0]?.error).toBe("the subscriber is no longer configured or was removed");
  });

  it("replay sends the event again with its original id, freshly signed, as a new delivery; an event never sent nor rebuildable is event_not_found", async () => {
    const hook = await receiver(() => 200);
    const { deps, advance } = await setup([{ url: hook.url, secret }], [0]);
    await enqueueEvent(deps, event, deps.subscribers.config.map(targetOf));
    await sweepDeliveries(deps);
    advance(2);
    const targets = async () => deps.subscribers.config.map(targetOf);
    const [again] = await replay(
      { ...deps, targets, jobs: { get: async () => undefined } },
      event.id,
    );
    await sweepDeliveries(deps);
    expect(hook.received).toHaveLength(2);
    const [first, second] = hook.received;
    expect(second?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
    expect(second?.headers["webhook-signature"]).not.toBe(first?.headers["webhook-signature"]);
    expect(verify(second!)).toEqual(verify(first!));
    expect(again?.subscriber).toBe(subscriberKey({ url: hook.url }));
    expect(await deps.store.list({ eventId: event.id, status: "delivered" })).toHaveLength(2);
    await expect(
      replay(
        { ...deps, targets, jobs: { get: async () => undefined } },
        "vidtsk_01JNONE.succeeded",
      ),
    ).rejects.toMatchObject({ code: "event_not_found" });
  });

  it("keeps delivered and dead deliveries 30 days: the purge deletes older ones, never newer or pending ones", async () => {
    const pendingId = `${event.detail.jobId}.failed`;
    const hook = await receiver((_n, webhookId) => (webhookId === pendingId ? 500 : 200));
    const { deps, advance } = await setup([{ url: hook.url, secret }], [0, 3600]);
    const targets = deps.subscribers.config.map(targetOf);
    await enqueueEvent(deps, event, targets);
    await sweepDeliveries(deps);
    advance(31 * 24 * 3600);
    const recent = { ...event, id: `${event.detail.jobId}.cancelled` };
    await enqueueEvent(deps, recent, targets);
    await enqueueEvent(deps, { ...event, id: pendingId }, targets);
    await sweepDeliveries(deps);
    expect(await purgeDeliveries(deps)).toBe(1);
    const kept = (await deps.store.list()).map((d) => `${d.eventId} ${d.status}`).sort();
    expect(kept).toEqual([`${recent.id} delivered`, `${pendingId} pending`].sort());
  });

  it("never shows among the jobs of the same table", async () => {
    const { deps, jobs } = await setup([{ url: "http://127.0.0.1:9/a", secret }], [0]);
    await enqueueEvent(deps, event, deps.subscribers.config.map(targetOf));
    expect((await jobs.list()).jobs).toEqual([]);
  });
});

/** The signatures of a request, one per secret that signed it. */
function signatures(request: Receiver["received"][number]): string[] {
  return String(request.headers["webhook-signature"]).split(" ");
}

describe("managed subscribers", () => {
  it("receive deliveries signed with their own secret; after a rotation both secrets verify for 24 h, then only the new one signs", async () => {
    const hook = await receiver(() => 200);
    const { deps, advance, managed } = await setup([], [0]);
    const subscribers = { config: [], managed };
    const made = await managed.create(
      { url: hook.url, description: "", ownerKeyId: "local" },
      deps.now(),
    );
    const sweep = { ...deps, subscribers };
    await enqueueEvent(deps, event, await targetsFor(subscribers, event));
    await sweepDeliveries(sweep);
    expect(verify(hook.received[0]!, made.secret)).toMatchObject({ type: "Generation Succeeded" });

    const rotated = await managed.rotate(made.record.id, "local", deps.now());
    const targets = () => allTargets(subscribers);
    const jobs = { get: async () => undefined };
    await replay({ ...deps, targets, jobs }, event.id);
    await sweepDeliveries(sweep);
    const during = hook.received[1]!;
    expect(signatures(during)).toHaveLength(2);
    expect(verify(during, made.secret)).toEqual(verify(during, rotated));

    advance(24 * 3600 + 1);
    await replay({ ...deps, targets, jobs }, event.id);
    await sweepDeliveries(sweep);
    // Past the overlap: one signature, the new secret's (checked by re-signing: the receiver's
    // clock is not 24 h ahead, so standardwebhooks would refuse the timestamp itself).
    const after = hook.received[2]!;
    const timestamp = Number(after.headers["webhook-timestamp"]);
    expect(signatures(after)).toEqual([
      signWebhook(rotated, event.id, timestamp, after.body)["webhook-signature"],
    ]);
  });

  it("a stored key's subscriber gets only its own jobs' events; the deployment's own key's gets every event", async () => {
    const { deps, managed } = await setup([], [0]);
    const now = deps.now();
    const admin = await managed.create(
      { url: "https://93.184.216.34/a", description: "", ownerKeyId: "local" },
      now,
    );
    const keyed = await managed.create(
      { url: "https://93.184.216.34/b", description: "", ownerKeyId: "key_a" },
      now,
    );
    const filtered = await managed.create(
      {
        url: "https://93.184.216.34/c",
        description: "",
        ownerKeyId: "local",
        events: ["Generation Failed"],
      },
      now,
    );
    const ids = async (owner: string) =>
      (await targetsFor({ config: [], managed, ownerOf: async () => owner }, event))
        .map((t) => t.subscriber)
        .sort();
    expect(await ids("key_b")).toEqual([admin.record.id]);
    expect(await ids("key_a")).toEqual([admin.record.id, keyed.record.id].sort());
    expect(await ids("key_a")).not.toContain(filtered.record.id);
  });
});
