/**
 * A job's own webhook on the local stack: a stored key's job created with X-Reelay-Webhook gets
 * its terminal event delivered there, signed with the key's webhook secret (checked with the
 * standardwebhooks package as a receiver would); a job without one sends nothing there; after the
 * key's secret is rotated, a delivery verifies with the new secret and with the old one (the 24 h
 * overlap); a batch's webhook_url gets every job's event and its Batch Completed.
 */
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startReceiver,
  type Receiver,
} from "../../packages/core/test/usecases/webhooks/receiver.ts";
import {
  bearer,
  postJson,
  startTestStack,
  type TestStack,
  waitFor,
  waitForTerminalJob,
  batchJobIds,
  STACK_START_MS,
} from "./support/stack.ts";

let receiver: Receiver;
let stack: TestStack;
let key: { id: string; key: string; webhook_secret: string };

beforeAll(async () => {
  receiver = await startReceiver(() => 200);
  stack = await startTestStack({ REELAY_WEBHOOK_SCHEDULE: "0,1,1" });
  key = (await postJson(`${stack.url}/v1/keys`, stack.apiKey, { name: "hooks" })).body;
}, STACK_START_MS);

afterAll(async () => {
  await stack?.dispose();
  await receiver?.close();
});

const headersOf = (request: Receiver["received"][number]) =>
  Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));

async function made(headers: Record<string, string>, prompt: string): Promise<string> {
  const response = await fetch(`${stack.url}/v1/video/generations`, {
    method: "POST",
    headers: { ...bearer(key.key), ...headers },
    body: JSON.stringify({ model: "gamma-3.1", prompt, duration_sec: 4 }),
  });
  expect(response.status).toBe(200);
  const id = ((await response.json()) as { task_id: string }).task_id;
  await waitForTerminalJob(stack.url, key.key, id);
  return id;
}

function deliveredFor(id: string): Promise<Receiver["received"][number]> {
  return waitFor(`the webhook of ${id}`, async () =>
    receiver.received.find((r) => JSON.parse(r.body).data?.jobId === id),
  );
}

describe("a job's own webhook", () => {
  it("POST /v1/keys shows the key's webhook secret once; a job made with X-Reelay-Webhook gets its event there, signed with it; one without sends nothing", async () => {
    expect(key.webhook_secret).toMatch(/^whsec_/);
    const listed = await (
      await fetch(`${stack.url}/v1/keys`, { headers: bearer(stack.apiKey) })
    ).text();
    expect(listed).not.toContain(key.webhook_secret);
    const silent = await made({}, "a quiet kite");
    const id = await made({ "X-Reelay-Webhook": receiver.url }, "a kite with a hook");
    const delivery = await deliveredFor(id);
    const payload = new Webhook(key.webhook_secret).verify(delivery.body, headersOf(delivery)) as {
      type: string;
      data: { jobId: string; status: string };
    };
    expect(payload).toMatchObject({ type: "Generation Succeeded", data: { jobId: id } });
    expect(receiver.received.some((r) => JSON.parse(r.body).data?.jobId === silent)).toBe(false);
  });

  it("after POST /v1/keys/{id}/webhook-secret a delivery verifies with the new secret and with the old one", async () => {
    const rotated = await postJson(
      `${stack.url}/v1/keys/${key.id}/webhook-secret`,
      stack.apiKey,
      {},
    );
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.webhook_secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(key.webhook_secret);
    const id = await made({ "X-Reelay-Webhook": receiver.url }, "a kite after the rotation");
    const delivery = await deliveredFor(id);
    for (const secret of [fresh, key.webhook_secret])
      expect(new Webhook(secret).verify(delivery.body, headersOf(delivery))).toMatchObject({
        data: { jobId: id },
      });
  });

  it("a batch's webhook_url gets each of its jobs' events and its Batch Completed, once each", async () => {
    const requests = [1, 2].map((i) => ({
      model: "gamma-3.1",
      prompt: `a batch kite ${i}`,
      duration_sec: 4,
    }));
    const posted = await postJson(`${stack.url}/v1/batches`, key.key, {
      requests,
      webhook_url: receiver.url,
      webhook_events: ["Generation Succeeded", "Batch Completed"],
    });
    expect(posted.status).toBe(200);
    const batchId = posted.body.id as string;
    const completed = await waitFor(
      "the Batch Completed delivery",
      async () => receiver.received.find((r) => JSON.parse(r.body).data?.batchId === batchId),
      60_000,
    );
    const ids = await batchJobIds(stack.url, key.key, batchId);
    const received = [completed, ...(await Promise.all(ids.map((id) => deliveredFor(id))))];
    const perJob = receiver.received.filter((r) => ids.includes(JSON.parse(r.body).data?.jobId));
    expect(perJob).toHaveLength(2);
    const types = received.map((r) => JSON.parse(r.body).type as string).sort();
    expect(types).toEqual(["Batch Completed", "Generation Succeeded", "Generation Succeeded"]);
    for (const r of received) new Webhook(key.webhook_secret).verify(r.body, headersOf(r));
  }, 90_000);
});
