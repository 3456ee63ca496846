/** Webhook attempts through the deployment's guard, to a real receiver on 127.0.0.1. */
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { guardedFetch } from "../../../src/adapters/net/guarded-fetch.ts";
import { webhookFetchPolicy } from "../../../src/domain/net/policy.ts";
import { attemptDelivery } from "../../../src/usecases/webhooks/deliver.ts";
import { startReceiver, type Receiver } from "./receiver.ts";

const subscriberSecret = `whsec_${randomBytes(24).toString("base64")}`;
const message = {
  id: "vidtsk_01JGUARD000000000000000000.succeeded",
  body: JSON.stringify({ type: "test" }),
};
const io = (deployment: "aws" | "local") => ({
  fetch: guardedFetch(webhookFetchPolicy(deployment)),
  now: () => new Date(),
});

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("webhook attempts through the guard", () => {
  it("AWS policy: a loopback subscriber is refused as final (url_forbidden, no token in the error) and never contacted", async () => {
    receiver = await startReceiver(() => 204);
    const url = `${receiver.url}?token=subscriber-token`;
    const outcome = await attemptDelivery({ url, secrets: [subscriberSecret] }, message, io("aws"));
    expect(outcome).toMatchObject({ delivered: false, final: true });
    expect(outcome.attempt.error).toMatch(/^url_forbidden: /);
    expect(outcome.attempt.error).not.toContain("subscriber-token");
    expect(receiver.received).toHaveLength(0);
  });

  it("AWS policy: a private subscriber (10.0.0.1) is refused the same way", async () => {
    const outcome = await attemptDelivery(
      { url: "https://10.0.0.1/hook", secrets: [subscriberSecret] },
      message,
      io("aws"),
    );
    expect(outcome).toMatchObject({ delivered: false, final: true });
    expect(outcome.attempt.error).toContain("private");
  });

  it("local policy: the loopback subscriber gets the signed POST", async () => {
    receiver = await startReceiver(() => 204);
    const outcome = await attemptDelivery(
      { url: receiver.url, secrets: [subscriberSecret] },
      message,
      io("local"),
    );
    expect(outcome).toMatchObject({ delivered: true, final: false, attempt: { status: 204 } });
    expect(receiver.received[0]?.body).toBe(message.body);
    expect(receiver.received[0]?.headers["webhook-id"]).toBe(message.id);
  });

  it("local policy: a 500 is a failure that is not final (only refusals are)", async () => {
    receiver = await startReceiver(() => 500);
    const outcome = await attemptDelivery(
      { url: receiver.url, secrets: [subscriberSecret] },
      message,
      io("local"),
    );
    expect(outcome).toMatchObject({ delivered: false, final: false, attempt: { status: 500 } });
  });
});
