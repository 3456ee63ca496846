/**
 * Managed webhook subscribers over the API, as the AWS function serves them (deployment "aws"):
 * user-given URLs are checked at create, a refusal is 400 with a code naming why; the secret is
 * answered on create and rotate only; each key sees and manages only its own subscribers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wireWebhooks } from "@reelay/core/wiring";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import type { Caller } from "../src/api-deps.ts";
import { API_KEY, harness } from "./support/harness.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

const OTHER_KEY = "other-key-0123456789";

async function app() {
  const h = await harness(aws);
  const tableName = h.jobs.tableName;
  return harness(aws, {
    jobs: h.jobs,
    // The admin key and a stored key ("key_other"), as keyStoreAuthenticator answers them.
    authenticate: async (token: string): Promise<Caller | undefined> =>
      token === API_KEY
        ? { keyId: "local" }
        : token === OTHER_KEY
          ? { keyId: "key_other" }
          : undefined,
    webhooks: wireWebhooks({
      config: { webhookSchedule: [0], aws: { rehearsal: false } },
      platform: "aws",
      clients: { db: aws.ddb, tableName },
    }).api,
  });
}

async function call(
  h: Awaited<ReturnType<typeof app>>,
  method: string,
  path: string,
  body?: unknown,
  key = API_KEY,
): Promise<{ status: number; body: any }> {
  const response = await h.app.request(path, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

describe("POST /v1/webhooks on the AWS configuration", () => {
  it("refuses private, loopback-by-name, metadata and non-https URLs with 400 and a code naming why", async () => {
    const h = await app();
    const cases: [string, string][] = [
      ["https://localhost/hook", "webhook_url_loopback"],
      ["https://api.localhost/hook", "webhook_url_loopback"],
      ["https://127.0.0.1:8443/hook", "webhook_url_loopback"],
      ["https://10.0.0.5/hook", "webhook_url_private"],
      ["https://192.168.1.20/hook", "webhook_url_private"],
      ["https://build.internal/hook", "webhook_url_private"],
      ["https://169.254.169.254/latest/meta-data", "webhook_url_metadata"],
      ["https://[::ffff:a9fe:a9fe]/", "webhook_url_metadata"],
      ["https://metadata.google.internal/computeMetadata/v1", "webhook_url_metadata"],
      ["http://93.184.216.34/hook", "webhook_url_scheme"],
      ["https://user:pass@93.184.216.34/hook", "webhook_url_scheme"],
    ];
    for (const [url, code] of cases) {
      const response = await call(h, "POST", "/v1/webhooks", { url });
      expect(response.status, url).toBe(400);
      expect(response.body.error, url).toMatchObject({ code, path: "url" });
    }
  });

  it("makes a public https subscriber, answers its whsec_ secret once, and lists it without", async () => {
    const h = await app();
    const made = await call(h, "POST", "/v1/webhooks", {
      url: "https://93.184.216.34/hook",
      events: ["Generation Failed"],
      description: "alerts",
    });
    expect(made.status).toBe(201);
    const body = made.body;
    expect(body).toMatchObject({
      url: "https://93.184.216.34/hook",
      ownerKeyId: "local",
      events: ["Generation Failed"],
    });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const listed = (await call(h, "GET", "/v1/webhooks")).body;
    expect(listed.data.map((s: { id: string }) => s.id)).toEqual([body.id]);
    expect(JSON.stringify(listed)).not.toContain(body.secret);
  });

  it("a key sees, rotates and removes only its own subscribers; rotate answers a new secret", async () => {
    const h = await app();
    const mine = (await call(h, "POST", "/v1/webhooks", { url: "https://93.184.216.34/a" })).body;
    const theirs = await call(
      h,
      "POST",
      "/v1/webhooks",
      { url: "https://93.184.216.34/b" },
      OTHER_KEY,
    );
    expect(theirs.status).toBe(201);
    const seen = (await call(h, "GET", "/v1/webhooks", undefined, OTHER_KEY)).body;
    expect(seen.data.map((s: { url: string }) => s.url)).toEqual(["https://93.184.216.34/b"]);
    const stranger = await call(h, "DELETE", `/v1/webhooks/${mine.id}`, undefined, OTHER_KEY);
    expect(stranger.status).toBe(404);
    expect(stranger.body.error.code).toBe("webhook_subscriber_not_found");
    const rotated = (await call(h, "POST", `/v1/webhooks/${mine.id}/rotate`)).body;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(mine.secret);
    expect((await call(h, "DELETE", `/v1/webhooks/${mine.id}`)).status).toBe(200);
    expect((await call(h, "GET", "/v1/webhooks")).body.data).toEqual([]);
  });
});
