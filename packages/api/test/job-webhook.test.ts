/**
 * A job's own webhook asked for at create (X-Reelay-Webhook) on the AWS configuration: the URL is
 * user input and is refused at once with a 400 whose code names why, and no job is made. The app
 * runs over dynalite and s3rver; the authenticator is a stand-in that knows one stored key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wireWebhooks } from "@reelay/core/wiring";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { API_KEY, harness, VALID } from "./support/harness.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

const STORED = "rk_stored-key-for-this-test";

async function app() {
  return harness(aws, {
    // Where reelay runs decides the URL check: AWS's (https to a public address).
    webhooks: wireWebhooks({
      config: { webhookSchedule: [0], aws: { rehearsal: false } },
      platform: "aws",
      clients: { db: aws.ddb, tableName: "never-read" },
    }).api,
    authenticate: async (token) =>
      token === STORED
        ? { keyId: "key_01JD8ZB000000000000000000" }
        : token === API_KEY
          ? { keyId: "local" }
          : undefined,
  });
}

describe("X-Reelay-Webhook at create, on the AWS configuration", () => {
  it.each([
    ["https://169.254.169.254/latest/meta-data", "webhook_url_metadata"],
    ["https://metadata.google.internal/hook", "webhook_url_metadata"],
    ["https://10.1.2.3/hook", "webhook_url_private"],
    ["https://192.168.0.7:8443/hook", "webhook_url_private"],
    ["https://printer.local/hook", "webhook_url_private"],
    ["https://localhost/hook", "webhook_url_loopback"],
    ["https://127.0.0.1/hook", "webhook_url_loopback"],
    ["https://[::1]/hook", "webhook_url_loopback"],
    ["http://example.com/hook", "webhook_url_scheme"],
  ])("%s is refused with 400 %s naming the header, and no job is made", async (url, code) => {
    const h = await app();
    const response = await h.post(VALID, {
      Authorization: `Bearer ${STORED}`,
      "X-Reelay-Webhook": url,
    });
    const body = (await response.json()) as { error: { code: string; path: string } };
    expect([response.status, body.error.code, body.error.path]).toEqual([
      400,
      code,
      "X-Reelay-Webhook",
    ]);
    expect(h.starter.started).toHaveLength(0);
  });

  it("the deployment's own key cannot ask (it has no webhook secret): 400 webhook_needs_stored_key", async () => {
    const h = await app();
    const response = await h.post(VALID, { "X-Reelay-Webhook": "https://hooks.example.com/x" });
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect([response.status, body.error.code]).toEqual([400, "webhook_needs_stored_key"]);
    expect(body.error.message).toMatch(/reelay keys create/);
  });

  it("a public URL is kept on the job with the event types asked for; an unknown event type is 400 with its header", async () => {
    const h = await app();
    const stored = { Authorization: `Bearer ${STORED}` };
    const made = await h.post(VALID, {
      ...stored,
      "X-Reelay-Webhook": "https://8.8.8.8/hook",
      "X-Reelay-Webhook-Events": "Generation Succeeded, Generation Failed",
    });
    expect(made.status).toBe(200);
    const { task_id: id } = (await made.json()) as { task_id: string };
    expect((await h.jobs.require(id)).webhook).toEqual({
      url: "https://8.8.8.8/hook",
      events: ["Generation Succeeded", "Generation Failed"],
    });
    const bad = await h.post(VALID, {
      ...stored,
      "X-Reelay-Webhook": "https://8.8.8.8/hook",
      "X-Reelay-Webhook-Events": "Generation Finished",
    });
    const body = (await bad.json()) as { error: { code: string; path: string } };
    expect([bad.status, body.error.code, body.error.path]).toEqual([
      400,
      "invalid_request",
      "X-Reelay-Webhook-Events",
    ]);
  });
});
