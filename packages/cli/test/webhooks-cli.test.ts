import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../../core/test/webhooks/receiver.ts";
import { startClientStack, type ClientStack } from "./support/client-stack.ts";

const secret = `whsec_${randomBytes(24).toString("base64")}`;

describe("reelay webhooks against the local stack", () => {
  let t: ClientStack;
  let receiver: Receiver;
  beforeAll(async () => {
    // The first attempt of each event fails, so the log has something to show.
    receiver = await startReceiver((n) => (n === 1 ? 503 : 200));
    t = await startClientStack(undefined, {
      REELAY_WEBHOOK_SCHEDULE: "0,1",
      REELAY_WEBHOOKS: JSON.stringify([{ url: receiver.url, secret }]),
    });
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await receiver?.close();
  });

  async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
    for (let tries = 0; tries < 150; tries++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error("timed out");
  }

  it("deliveries lists the delivery with its attempts (table and --json); replay sends the event again under the same webhook-id", async () => {
    const created = await t.api<{ task_id: string }>("POST", "/v1/video/generations", {
      model: "gamma-3.1",
      prompt: "a red balloon",
      duration_sec: 4,
    });
    const eventId = `${created.body.task_id}.succeeded`;
    const delivered = await until(async () => {
      const listed = await t.cli(["webhooks", "deliveries", "--status", "delivered", "--json"]);
      const data = JSON.parse(listed.stdout).data as { eventId: string; attempts: unknown[] }[];
      return data.find((d) => d.eventId === eventId);
    });
    expect(delivered.attempts).toHaveLength(2);
    const shown = await t.cli(["webhooks", "deliveries", "--event", eventId]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(eventId);
    expect(shown.stdout).toMatch(/delivered .* 503,200/);

    const replayed = await t.cli(["webhooks", "replay", eventId, "--json"]);
    expect(replayed.code).toBe(0);
    expect(JSON.parse(replayed.stdout).data).toHaveLength(1);
    await until(async () => (receiver.received.length >= 3 ? true : undefined));
    expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([
      eventId,
      eventId,
      eventId,
    ]);
  }, 60_000);

  it("retry of an unknown delivery exits 1 naming delivery_not_found; a bad action is a usage error (exit 2)", async () => {
    const missing = await t.cli(["webhooks", "retry", "dlv_01JZ0000000000000000000000"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("[delivery_not_found]");
    expect((await t.cli(["webhooks", "resend"])).code).toBe(2);
  });
});
