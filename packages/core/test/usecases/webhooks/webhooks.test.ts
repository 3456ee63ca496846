import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { ReelayError } from "../../../src/domain/errors.ts";
import { eventFromBridge } from "../../../src/domain/webhooks/payload.ts";
import { signWebhook } from "../../../src/domain/webhooks/sign.ts";
import { parseSubscribersText } from "../../../src/domain/webhooks/subscribers.ts";
import { event } from "./fixtures.ts";

const secret = `whsec_${randomBytes(24).toString("base64")}`;

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
