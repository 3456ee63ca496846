/**
 * Acceptance for webhooks on the local stack, schedule compressed to seconds
 * (REELAY_WEBHOOK_SCHEDULE=0,1,1,1,1,1): a receiver answering 503 to the first five attempts of
 * each event gets each terminal event exactly once, under one webhook-id, signed per Standard
 * Webhooks (checked with the standardwebhooks package), and the delivery log shows six attempts; one
 * that always fails ends dead; retry and replay send again with the same webhook-id.
 */
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DeliveryListSchema } from "@reelay/api/openapi";
import {
  startReceiver,
  type Receiver,
} from "../../packages/core/test/usecases/webhooks/receiver.ts";
import {
  getJson,
  postJson,
  startTestStack,
  type TestStack,
  waitFor,
  waitForTerminalJob,
  STACK_START_MS,
} from "./support/stack.ts";
import { attemptsPerEvent, failFirst } from "./support/webhooks.ts";

const secret = `whsec_${randomBytes(24).toString("base64")}`;
let flaky: Receiver;
let broken: Receiver;
let stack: TestStack;

beforeAll(async () => {
  flaky = await startReceiver(failFirst(5));
  broken = await startReceiver(() => 500);
  stack = await startTestStack({
    REELAY_WEBHOOK_SCHEDULE: "0,1,1,1,1,1",
    REELAY_WEBHOOKS: JSON.stringify([
      { url: flaky.url, secret },
      { url: broken.url, secret },
    ]),
  });
}, STACK_START_MS);

afterAll(async () => {
  await stack?.dispose();
  await flaky?.close();
  await broken?.close();
});

function verify(request: Receiver["received"][number]): unknown {
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([k, v]) => [k, String(v)]),
  );
  return new Webhook(secret).verify(request.body, headers);
}

async function deliveries(query: string): Promise<any[]> {
  const { status, body } = await getJson(
    `${stack.url}/v1/webhooks/deliveries?${query}`,
    stack.apiKey,
  );
  expect(status).toBe(200);
  // The log's answers are what the OpenAPI document says they are.
  DeliveryListSchema.parse(body);
  return body.data;
}

async function finishedJobs(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await postJson(`${stack.url}/v1/video/generations`, stack.apiKey, {
      model: "gamma-3.1",
      prompt: `a kite over the dunes, take ${i + 1}`,
      duration_sec: 4,
    });
    expect(created.status).toBe(200);
    ids.push(created.body.task_id as string);
  }
  for (const id of ids)
    expect((await waitForTerminalJob(stack.url, stack.apiKey, id)).status).toBe("succeeded");
  return ids;
}

describe("durable webhook deliveries on the local stack", () => {
  it("a receiver failing the first five attempts gets each terminal event exactly once on the sixth, same webhook-id, six attempts in the log; the always-failing one is dead", async () => {
    const ids = await finishedJobs(2);
    const eventIds = ids.map((id) => `${id}.succeeded`);
    await waitFor(
      "both events delivered to the flaky receiver and dead for the broken one",
      async () => {
        const delivered = await deliveries("status=delivered");
        const dead = await deliveries("status=dead");
        return delivered.length >= 2 && dead.length >= 2 ? true : undefined;
      },
    );
    // One more second of the schedule: nothing further may arrive.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(attemptsPerEvent(flaky)).toEqual(
      Object.fromEntries(eventIds.map((id) => [id, [503, 503, 503, 503, 503, 200]])),
    );
    for (const request of flaky.received)
      expect(verify(request)).toMatchObject({
        type: "Generation Succeeded",
        data: { status: "succeeded" },
      });
    for (const eventId of eventIds) {
      const log = await deliveries(`event=${eventId}`);
      const byUrl = Object.fromEntries(log.map((d) => [d.url, d]));
      expect(byUrl[flaky.url]).toMatchObject({ status: "delivered", eventId });
      expect(byUrl[flaky.url].attempts.map((a: any) => a.status)).toEqual([
        503, 503, 503, 503, 503, 200,
      ]);
      for (const attempt of byUrl[flaky.url].attempts)
        expect(attempt.latencyMs).toBeGreaterThanOrEqual(0);
      expect(byUrl[broken.url]).toMatchObject({ status: "dead" });
      expect(byUrl[broken.url].attempts).toHaveLength(6);
      expect(JSON.stringify(log)).not.toContain(secret.slice(6));
    }
  }, 90_000);

  it("retry gives a dead delivery one more attempt, and replay sends the event again with its id and a fresh signature", async () => {
    const [dead] = await deliveries("status=dead");
    const retried = await postJson(
      `${stack.url}/v1/webhooks/deliveries/${dead.id}/retry`,
      stack.apiKey,
      {},
    );
    expect(retried.status).toBe(202);
    await waitFor("the retried attempt", async () => {
      const [after] = await deliveries(`event=${dead.eventId}&status=dead`);
      return after?.attempts.length === 7 ? after : undefined;
    });
    const before = flaky.received.length;
    const flakyKey = (await deliveries(`event=${dead.eventId}&status=delivered`))[0].subscriber;
    const replayed = await postJson(`${stack.url}/v1/events/${dead.eventId}/replay`, stack.apiKey, {
      subscriber: flakyKey,
    });
    expect(replayed.status).toBe(202);
    expect(replayed.body.data).toHaveLength(1);
    await waitFor("the replay", async () => (flaky.received.length > before ? true : undefined));
    const again = flaky.received.at(-1)!;
    const original = flaky.received.filter((r) => r.headers["webhook-id"] === dead.eventId).at(-2)!;
    expect(again.headers["webhook-id"]).toBe(dead.eventId);
    expect(again.headers["webhook-signature"]).not.toBe(original.headers["webhook-signature"]);
    expect(verify(again)).toEqual(verify(original));
  }, 60_000);

  it("event= takes an event type as well as an event id", async () => {
    const byType = await deliveries("event=Generation%20Succeeded&status=delivered");
    expect(byType.length).toBeGreaterThanOrEqual(2);
    expect(new Set(byType.map((d) => d.eventType))).toEqual(new Set(["Generation Succeeded"]));
    expect(await deliveries("event=Generation%20Failed")).toEqual([]);
  });

  it("answers 400 invalid_query for an unknown status and 404 delivery_not_found for an unknown delivery", async () => {
    const bad = await getJson(`${stack.url}/v1/webhooks/deliveries?status=lost`, stack.apiKey);
    expect(bad).toMatchObject({ status: 400, body: { error: { code: "invalid_query" } } });
    const missing = await postJson(
      `${stack.url}/v1/webhooks/deliveries/dlv_01JZ0000000000000000000000/retry`,
      stack.apiKey,
      {},
    );
    expect(missing).toMatchObject({ status: 404, body: { error: { code: "delivery_not_found" } } });
  });

  it("a stored key's managed subscriber receives that key's job events only, signed with the secret its create answered", async () => {
    const own = await startReceiver(() => 200);
    try {
      const key = (
        await postJson(`${stack.url}/v1/keys`, stack.apiKey, {
          name: "team",
          scopes: ["read", "write", "webhooks"],
        })
      ).body.key;
      const made = await postJson(`${stack.url}/v1/webhooks`, key, { url: own.url });
      expect(made.status).toBe(201);
      const created = await postJson(`${stack.url}/v1/video/generations`, key, {
        model: "gamma-3.1",
        prompt: "a team's kite",
        duration_sec: 4,
      });
      const [adminJob] = await finishedJobs(1);
      const ownJob = created.body.task_id as string;
      expect((await waitForTerminalJob(stack.url, key, ownJob)).status).toBe("succeeded");
      await waitFor("the key's own event", async () =>
        own.received.length >= 1 ? true : undefined,
      );
      // The admin's job ended too: its event would have arrived by now had it been sent.
      await waitFor("the admin job's delivery to the deployment's subscriber", async () =>
        flaky.received.some((r) => r.headers["webhook-id"] === `${adminJob}.succeeded`)
          ? true
          : undefined,
      );
      expect(own.received.map((r) => r.headers["webhook-id"])).toEqual([`${ownJob}.succeeded`]);
      const request = own.received[0]!;
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([k, v]) => [k, String(v)]),
      );
      expect(new Webhook(made.body.secret).verify(request.body, headers)).toMatchObject({
        data: { jobId: ownJob },
      });
    } finally {
      await own.close();
    }
  }, 60_000);
});
