/**
 * A key's life through the API on dynalite: made with an end (expires_at), refused with 401
 * key_expired after it, refused at the next call once revoked, and its last_used_at moved by at
 * most one write a minute.
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ApiKeyStore } from "@reelay/core/adapters";
import { describe, expect, it } from "vitest";
import { call, newKey, sharedFullApp } from "./support/full-app.ts";
import { API_KEY } from "./support/harness.ts";

const app = sharedFullApp();

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function listed(id: string) {
  const keys = await call(app(), "GET", "/v1/keys", API_KEY);
  return (keys.body.data as { id: string; last_used_at?: string; expires_at?: string }[]).find(
    (key) => key.id === id,
  );
}

describe("key lifecycle", () => {
  it("expires_at must be an ISO time in the future: 400 at expires_at, and no key is made", async () => {
    const before = (await call(app(), "GET", "/v1/keys", API_KEY)).body.data.length;
    for (const expires_at of ["2001-01-01T00:00:00Z", "30d", "tomorrow", 12, "2030-01-01"]) {
      const made = await call(app(), "POST", "/v1/keys", API_KEY, { expires_at });
      expect(made.status, String(expires_at)).toBe(400);
      expect(made.body.error).toMatchObject({ code: "invalid_request", path: "expires_at" });
    }
    expect((await call(app(), "GET", "/v1/keys", API_KEY)).body.data.length).toBe(before);
  });

  it("a key answers until its expires_at and is 401 key_expired after it", async () => {
    const expiresAt = inMs(1_500);
    const key = await newKey(app(), { expires_at: expiresAt });
    expect((await listed(key.id))?.expires_at).toBe(new Date(expiresAt).toISOString());
    expect((await call(app(), "GET", "/v1/jobs", key.key)).status).toBe(200);
    await sleep(Date.parse(expiresAt) - Date.now() + 50);
    const refused = await call(app(), "GET", "/v1/jobs", key.key);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: "key_expired", keyId: key.id });
    expect(JSON.stringify(refused.body)).not.toContain(key.key);
    const raw = await app().app.request("/v1/jobs", {
      headers: { Authorization: `Bearer ${key.key}` },
    });
    expect(raw.headers.get("www-authenticate")).toBe(
      'Bearer realm="reelay", error="invalid_token"',
    );
  });

  it("a revoked key is refused at the very next call", async () => {
    const key = await newKey(app());
    expect((await call(app(), "GET", "/v1/jobs", key.key)).status).toBe(200);
    expect((await call(app(), "DELETE", `/v1/keys/${key.id}`, API_KEY)).status).toBe(200);
    const refused = await call(app(), "GET", "/v1/jobs", key.key);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("unauthorized");
  });

  it("last_used_at is absent until a call, set by it, and kept by the calls of the next minute", async () => {
    const key = await newKey(app());
    expect((await listed(key.id))?.last_used_at).toBeUndefined();
    const start = Date.now();
    await call(app(), "GET", "/v1/jobs", key.key);
    const first = (await listed(key.id))?.last_used_at;
    expect(first).toBeDefined();
    expect(Date.parse(first as string)).toBeGreaterThanOrEqual(start - 5);
    await sleep(20);
    for (let i = 0; i < 5; i++) await call(app(), "GET", "/v1/jobs", key.key);
    expect((await listed(key.id))?.last_used_at).toBe(first);
  });

  it("last_used_at is one conditional write a minute: 20 calls in a minute send 1 update, a minute on sends 1 more", async () => {
    const key = await newKey(app());
    const { db, tableName } = app();
    let updates = 0;
    // The real client, counting the UpdateItem calls it sends (no answer is changed).
    const counting = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== "send") return Reflect.get(target, property, receiver);
        return (command: unknown) => {
          if (command instanceof UpdateCommand) updates += 1;
          return target.send(command as never);
        };
      },
    });
    let now = new Date();
    const store = new ApiKeyStore(counting, tableName, { now: () => now });
    for (let i = 0; i < 20; i++) expect((await store.verify(key.key))?.id).toBe(key.id);
    expect(updates).toBe(1);
    const first = (await listed(key.id))?.last_used_at;
    now = new Date(now.getTime() + 61_000);
    for (let i = 0; i < 5; i++) await store.verify(key.key);
    expect(updates).toBe(2);
    expect((await listed(key.id))?.last_used_at).toBe(now.toISOString());
    expect(first).not.toBe(now.toISOString());
  });

  it("two instances at once in the same minute: the condition lets one write through", async () => {
    const key = await newKey(app());
    const { db, tableName } = app();
    const now = new Date();
    const a = new ApiKeyStore(db, tableName, { now: () => now });
    const b = new ApiKeyStore(db, tableName, { now: () => new Date(now.getTime() + 5) });
    await Promise.all([a.verify(key.key), b.verify(key.key)]);
    const at = (await listed(key.id))?.last_used_at;
    expect([now.toISOString(), new Date(now.getTime() + 5).toISOString()]).toContain(at);
  });
});
