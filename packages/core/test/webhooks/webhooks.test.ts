import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { ReelayError } from "../../src/errors.ts";
import type { TerminalEvent } from "../../src/events/types.ts";
import { JsonlDeadLetters } from "../../src/webhooks/dead-letter.ts";
import { retryDelayMs, DEFAULT_RETRY } from "../../src/webhooks/deliver.ts";
import { dispatchWebhooks, WebhookDispatcher } from "../../src/webhooks/dispatch.ts";
import { eventFromBridge } from "../../src/webhooks/payload.ts";
import { signWebhook } from "../../src/webhooks/sign.ts";
import { parseSubscribersText } from "../../src/webhooks/subscribers.ts";
import { startReceiver, type Receiver } from "./receiver.ts";

const secret = `whsec_${randomBytes(24).toString("base64")}`;
const fast = { attempts: 5, baseDelayMs: 5, timeoutMs: 5000 };

const event: TerminalEvent = {
  id: "vidtsk_01JTESTEVENT0000000000000.succeeded",
  time: "2026-01-01T00:00:10.000Z",
  source: "reelay",
  "detail-type": "Generation Succeeded",
  detail: {
    jobId: "vidtsk_01JTESTEVENT0000000000000",
    kind: "video",
    model: "gamma-3.1",
    status: "succeeded",
    output: null,
    outputs: [],
    error: null,
    usage: { unit: "video_second", quantity: 5, resolution: null, audio: false },
    estimate: { cost: null, currency: null, price_version: null },
    cost: null,
    charged: true,
    timings: {
      createdAt: "2026-01-01T00:00:00.000Z",
      submittedAt: null,
      upstreamDoneAt: null,
      finishedAt: "2026-01-01T00:00:10.000Z",
      totalMs: 10_000,
    },
    upstreamTaskId: null,
  },
};

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(statusFor: (n: number) => number): Promise<Receiver> {
  const started = await startReceiver(statusFor);
  cleanups.push(() => started.close());
  return started;
}

async function deadLetters(): Promise<JsonlDeadLetters> {
  const dir = await mkdtemp(join(tmpdir(), "reelay-webhooks-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return new JsonlDeadLetters(join(dir, "webhooks-dead-letter.jsonl"));
}

/** Throws unless standardwebhooks accepts the request as signed by `secret`. */
function verify(received: { headers: Record<string, unknown>; body: string }): unknown {
  const headers = Object.fromEntries(
    Object.entries(received.headers).map(([k, v]) => [k, String(v)]),
  );
  return new Webhook(secret).verify(received.body, headers);
}

describe("signWebhook", () => {
  it("produces headers the standardwebhooks package verifies, and it rejects a changed body", () => {
    const body = JSON.stringify({ hello: "world" });
    const headers = signWebhook(secret, "msg_1", Date.now() / 1000, body);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verify({ headers: { ...headers }, body })).toEqual({ hello: "world" });
    expect(() =>
      verify({ headers: { ...headers }, body: body.replace("world", "there") }),
    ).toThrow();
  });

  it("rejects a secret without the whsec_ prefix or with too few bytes", () => {
    expect(() => signWebhook("plain-secret", "msg_1", 0, "{}")).toThrow(ReelayError);
    expect(() =>
      signWebhook(`whsec_${Buffer.from("short").toString("base64")}`, "msg_1", 0, "{}"),
    ).toThrow(/at least 16/);
  });
});

describe("parseSubscribersText", () => {
  it("accepts a JSON array of {url, secret}", () => {
    expect(
      parseSubscribersText(
        JSON.stringify([{ url: "http://127.0.0.1:9/hook", secret }]),
        "REELAY_WEBHOOKS",
      ),
    ).toEqual([{ url: "http://127.0.0.1:9/hook", secret }]);
  });

  it("rejects a non-http URL and a bad secret without echoing the secret", () => {
    expect(() =>
      parseSubscribersText(JSON.stringify([{ url: "ftp://x/hook", secret }]), "REELAY_WEBHOOKS"),
    ).toThrow(/REELAY_WEBHOOKS/);
    const bad = "whsec_!!not-base64-at-all-but-long-enough!!";
    let message = "";
    try {
      parseSubscribersText(
        JSON.stringify([{ url: "http://127.0.0.1:9/", secret: bad }]),
        "REELAY_WEBHOOKS",
      );
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/whsec_/);
    expect(message).not.toContain(bad);
  });
});

describe("dispatchWebhooks", () => {
  it("delivers a terminal event signed per Standard Webhooks with the event id as webhook-id", async () => {
    const hook = await receiver(() => 204);
    const outcomes = await dispatchWebhooks(event, [{ url: hook.url, secret }], {
      deadLetters: await deadLetters(),
      retry: fast,
    });
    expect(outcomes).toEqual([{ url: hook.url, delivered: true, attempts: 1 }]);
    expect(hook.received).toHaveLength(1);
    const [request] = hook.received;
    expect(request?.headers["webhook-id"]).toBe(event.id);
    expect(verify(request!)).toEqual({
      type: "Generation Succeeded",
      timestamp: event.time,
      data: event.detail,
    });
  });

  it("retries a receiver that fails twice: three requests, one delivery, the same webhook-id each time, every one validly signed", async () => {
    const hook = await receiver((n) => (n <= 2 ? 503 : 200));
    const letters = await deadLetters();
    const outcomes = await dispatchWebhooks(event, [{ url: hook.url, secret }], {
      deadLetters: letters,
      retry: fast,
    });
    expect(outcomes[0]).toMatchObject({ delivered: true, attempts: 3 });
    expect(hook.received.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(new Set(hook.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([event.id]));
    for (const request of hook.received) expect(() => verify(request)).not.toThrow();
    expect(await letters.readAll()).toEqual([]);
  });

  it("writes one dead letter, without the secret, for a receiver that always fails, after exactly `attempts` tries", async () => {
    const hook = await receiver(() => 500);
    const letters = await deadLetters();
    const outcomes = await dispatchWebhooks(event, [{ url: hook.url, secret }], {
      deadLetters: letters,
      retry: fast,
    });
    expect(outcomes[0]).toMatchObject({ delivered: false, attempts: 5, lastError: "HTTP 500" });
    expect(hook.received).toHaveLength(5);
    const written = await letters.readAll();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      webhookId: event.id,
      url: hook.url,
      attempts: 5,
      lastError: "HTTP 500",
    });
    expect(JSON.parse(written[0]!.body)).toMatchObject({
      type: "Generation Succeeded",
      data: { jobId: event.detail.jobId },
    });
    expect(JSON.stringify(written)).not.toContain(secret.slice(6));
  });

  it("dead-letters an unreachable subscriber and still delivers to a healthy one", async () => {
    const hook = await receiver(() => 200);
    const gone = await startReceiver(() => 200);
    await gone.close();
    const letters = await deadLetters();
    const outcomes = await dispatchWebhooks(
      event,
      [
        { url: gone.url, secret },
        { url: hook.url, secret },
      ],
      { deadLetters: letters, retry: { ...fast, attempts: 2 } },
    );
    expect(outcomes.map((o) => o.delivered)).toEqual([false, true]);
    expect((await letters.readAll()).map((l) => l.url)).toEqual([gone.url]);
  });
});

describe("retry backoff", () => {
  it("doubles from the base delay: 1, 2, 4, 8 s by default", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(DEFAULT_RETRY, n))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
  });
});

describe("WebhookDispatcher", () => {
  it("delivers in the background and drain() waits for retries in flight", async () => {
    const hook = await receiver((n) => (n === 1 ? 500 : 200));
    const dispatcher = new WebhookDispatcher([{ url: hook.url, secret }], {
      deadLetters: await deadLetters(),
      retry: fast,
    });
    dispatcher.handle(event);
    await dispatcher.drain();
    expect(hook.received.map((r) => r.status)).toEqual([500, 200]);
  });
});

describe("eventFromBridge", () => {
  it("rebuilds a Batch Completed event with its stable id <batchId>.completed", () => {
    const detail = {
      batchId: "bat_01JZ0000000000000000000000",
      total: 3,
      counts: { succeeded: 2, failed: 0, cancelled: 0, rejected: 1 },
      results: { bucket: "b", key: "outputs/batches/bat_01JZ0000000000000000000000/results.jsonl" },
      createdAt: "2026-11-24T10:00:00.000Z",
      finishedAt: "2026-11-24T10:05:00.000Z",
    };
    expect(eventFromBridge({ source: "reelay", "detail-type": "Batch Completed", detail })).toEqual(
      {
        id: "bat_01JZ0000000000000000000000.completed",
        time: "2026-11-24T10:05:00.000Z",
        source: "reelay",
        "detail-type": "Batch Completed",
        detail,
      },
    );
    expect(() =>
      eventFromBridge({ source: "reelay", "detail-type": "Batch Completed", detail: {} }),
    ).toThrow(/Not a reelay event/);
  });

  it("rebuilds the stable event id <jobId>.<status> from an EventBridge delivery", () => {
    const rebuilt = eventFromBridge({
      source: "reelay",
      "detail-type": "Generation Succeeded",
      detail: event.detail,
    });
    expect(rebuilt).toEqual({ ...event });
  });

  it("refuses another source and a detail-type that does not match the status", () => {
    expect(() =>
      eventFromBridge({
        source: "other",
        "detail-type": "Generation Succeeded",
        detail: event.detail,
      }),
    ).toThrow(/Not a reelay event/);
    expect(() =>
      eventFromBridge({
        source: "reelay",
        "detail-type": "Generation Failed",
        detail: event.detail,
      }),
    ).toThrow(/Not a reelay event/);
  });
});
