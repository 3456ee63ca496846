/**
 * Acceptance for webhooks on the local stack: subscribers from REELAY_WEBHOOKS receive the job's
 * terminal event signed per Standard Webhooks (checked with the standardwebhooks package); a
 * subscriber that fails twice gets it on the third try under one webhook-id, and one that always
 * fails ends in `<data dir>/webhooks-dead-letter.jsonl`.
 */
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@reelay/core/config";
import { DEAD_LETTER_FILE, JsonlDeadLetters } from "@reelay/core/webhooks/dead-letter";
import { startLocalStack, type LocalStack } from "@reelay/local/stack";
import { startReceiver, type Receiver } from "../../packages/core/test/webhooks/receiver.ts";
import { postJson, SIM_TIME_SCALE, tempDir, waitFor, waitForTerminalJob } from "./support/stack.ts";

const secret = `whsec_${randomBytes(24).toString("base64")}`;
let flaky: Receiver;
let broken: Receiver;
let stack: LocalStack;
let dataDir: string;

beforeAll(async () => {
  flaky = await startReceiver((n) => (n <= 2 ? 503 : 200));
  broken = await startReceiver(() => 500);
  dataDir = await tempDir("webhooks");
  const config = loadConfig({
    REELAY_PORT: "0",
    REELAY_DATA_DIR: dataDir,
    REELAY_WEBHOOKS: JSON.stringify([
      { url: flaky.url, secret },
      { url: broken.url, secret },
    ]),
  });
  stack = await startLocalStack({
    config,
    quiet: true,
    s3Port: 0,
    simulator: { timeScale: SIM_TIME_SCALE },
    webhookRetry: { attempts: 4, baseDelayMs: 20 },
  });
});

afterAll(async () => {
  await stack?.stop();
  await flaky?.close();
  await broken?.close();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

describe("webhooks on the local stack", () => {
  it("delivers the terminal event once to a receiver failing twice (same webhook-id on all 3 tries) and dead-letters the one that always fails", async () => {
    const created = await postJson(`${stack.url}/v1/video/generations`, stack.apiKey, {
      model: "gamma-3.1",
      prompt: "a kite over the dunes",
      duration_sec: 4,
    });
    expect(created.status).toBe(200);
    const jobId = created.body.task_id as string;
    const job = await waitForTerminalJob(stack.url, stack.apiKey, jobId);
    expect(job.status).toBe("succeeded");

    const letters = new JsonlDeadLetters(join(dataDir, DEAD_LETTER_FILE));
    const dead = await waitFor("the dead letter", async () => {
      const all = await letters.readAll();
      return all.length > 0 ? all : undefined;
    });
    await waitFor("the third delivery", async () =>
      flaky.received.length >= 3 ? true : undefined,
    );

    expect(flaky.received.map((r) => r.status)).toEqual([503, 503, 200]);
    const ids = new Set(flaky.received.map((r) => r.headers["webhook-id"]));
    expect(ids).toEqual(new Set([`${jobId}.succeeded`]));
    const verifier = new Webhook(secret);
    for (const request of flaky.received) {
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([k, v]) => [k, String(v)]),
      );
      expect(verifier.verify(request.body, headers)).toMatchObject({
        type: "Generation Succeeded",
        data: { jobId, status: "succeeded" },
      });
    }

    expect(broken.received).toHaveLength(4);
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({
      webhookId: `${jobId}.succeeded`,
      url: broken.url,
      attempts: 4,
      lastError: "HTTP 500",
    });
  });
});
