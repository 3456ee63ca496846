/** Webhook deliveries through the deployment's guard, to a real receiver on 127.0.0.1. */
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { guardedFetch } from "../../src/net/guarded-fetch.ts";
import { webhookFetchPolicy } from "../../src/net/policy.ts";
import { deliverWebhook } from "../../src/webhooks/deliver.ts";
import { startReceiver, type Receiver } from "./receiver.ts";

const subscriberSecret = `whsec_${randomBytes(24).toString("base64")}`;
const message = {
  id: "vidtsk_01JGUARD000000000000000000.succeeded",
  body: JSON.stringify({ type: "test" }),
};
const fast = { attempts: 5, baseDelayMs: 1, timeoutMs: 5000 };

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("webhook deliveries through the guard", () => {
  it("AWS policy: a loopback subscriber is refused once, never retried, never contacted; the dead letter says url_forbidden", async () => {
    receiver = await startReceiver(() => 204);
    const url = `${receiver.url}?token=subscriber-token`;
    const result = await deliverWebhook({ url, secret: subscriberSecret }, message, {
      fetch: guardedFetch(webhookFetchPolicy("aws")),
      retry: fast,
    });
    expect(result).toMatchObject({ delivered: false, attempts: 1 });
    expect(result.lastError).toMatch(/^url_forbidden: /);
    expect(result.lastError).not.toContain("subscriber-token");
    expect(receiver.received).toHaveLength(0);
  });

  it("AWS policy: a private subscriber (10.0.0.1) is refused the same way", async () => {
    const result = await deliverWebhook(
      { url: "https://10.0.0.1/hook", secret: subscriberSecret },
      message,
      { fetch: guardedFetch(webhookFetchPolicy("aws")), retry: fast },
    );
    expect(result).toMatchObject({ delivered: false, attempts: 1 });
    expect(result.lastError).toContain("private");
  });

  it("local policy: the loopback subscriber gets the signed POST", async () => {
    receiver = await startReceiver(() => 204);
    const result = await deliverWebhook({ url: receiver.url, secret: subscriberSecret }, message, {
      fetch: guardedFetch(webhookFetchPolicy("local")),
      retry: fast,
    });
    expect(result).toEqual({ delivered: true, attempts: 1 });
    expect(receiver.received[0]?.body).toBe(message.body);
    expect(receiver.received[0]?.headers["webhook-id"]).toBe(message.id);
  });

  it("local policy: a subscriber failing with 500 is still retried (only refusals are final)", async () => {
    receiver = await startReceiver((n) => (n < 3 ? 500 : 204));
    const result = await deliverWebhook({ url: receiver.url, secret: subscriberSecret }, message, {
      fetch: guardedFetch(webhookFetchPolicy("local")),
      retry: fast,
    });
    expect(result).toEqual({ delivered: true, attempts: 3 });
  });
});
