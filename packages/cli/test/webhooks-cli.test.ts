import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../../core/test/usecases/webhooks/receiver.ts";
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

  it("add prints a whsec_ secret once that verifies the subscriber's deliveries; list, rotate and remove manage it; a metadata URL exits 1 naming webhook_url_metadata", async () => {
    const mine = await startReceiver(() => 200);
    try {
      const added = await t.cli(["webhooks", "add", mine.url, "--events", "Generation Succeeded"]);
      expect(added.code).toBe(0);
      const secret = added.stdout.trim();
      expect(secret).toMatch(/^whsec_/);
      const listed = await t.cli(["webhooks", "list"]);
      expect(listed.stdout).toContain(mine.url);
      expect(listed.stdout).not.toContain(secret);
      await t.api("POST", "/v1/video/generations", {
        model: "gamma-3.1",
        prompt: "a green kite",
        duration_sec: 4,
      });
      await until(async () => (mine.received.length >= 1 ? true : undefined));
      const [request] = mine.received;
      const headers = Object.fromEntries(
        Object.entries(request!.headers).map(([k, v]) => [k, String(v)]),
      );
      expect(new Webhook(secret).verify(request!.body, headers)).toMatchObject({
        type: "Generation Succeeded",
      });
      const id = listed.stdout.split("\n")[1]?.split(/\s+/)[0] as string;
      const rotated = await t.cli(["webhooks", "rotate", id]);
      expect(rotated.stdout.trim()).toMatch(/^whsec_/);
      expect(rotated.stdout.trim()).not.toBe(secret);
      expect((await t.cli(["webhooks", "remove", id])).code).toBe(0);
      expect((await t.cli(["webhooks", "list"])).stdout).toBe("none\n");
      const refused = await t.cli(["webhooks", "add", "http://169.254.169.254/latest/"]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("[webhook_url_metadata]");
    } finally {
      await mine.close();
    }
  }, 60_000);
});
