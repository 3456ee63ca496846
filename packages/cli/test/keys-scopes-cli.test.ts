import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClientStack, type ClientStack } from "./support/client-stack.ts";

describe("reelay keys create --scopes against the local stack", () => {
  let t: ClientStack;
  beforeAll(async () => {
    t = await startClientStack();
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
  });

  it("--scopes read makes a key that reads and is refused a create with scope_missing naming write", {
    timeout: 90_000,
  }, async () => {
    const created = await t.cli([
      "keys",
      "create",
      "--name",
      "viewer",
      "--scopes",
      "read",
      "--json",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const record = JSON.parse(created.stdout) as { key: string; scopes: string[] };
    expect(record.scopes).toEqual(["read"]);
    const headers = { authorization: `Bearer ${record.key}`, "content-type": "application/json" };
    expect((await fetch(`${t.stack.url}/v1/jobs`, { headers })).status).toBe(200);
    const refused = await fetch(`${t.stack.url}/v1/video/generations`, {
      method: "POST",
      headers,
      body: JSON.stringify({ model: "gamma-3.1", prompt: "not allowed", duration_sec: 4 }),
    });
    expect(refused.status).toBe(403);
    expect(
      ((await refused.json()) as { error: { code: string; scope: string } }).error,
    ).toMatchObject({ code: "scope_missing", scope: "write" });
  });

  it("--scopes read,write,webhooks is kept in order; an unknown scope exits 1 naming it and makes no key", {
    timeout: 120_000,
  }, async () => {
    const created = await t.cli(["keys", "create", "--scopes", "webhooks, read,write", "--json"]);
    expect(created.code, created.stderr).toBe(0);
    expect((JSON.parse(created.stdout) as { scopes: string[] }).scopes).toEqual([
      "read",
      "write",
      "webhooks",
    ]);
    const before = (await t.cli(["keys", "list", "--json"])).stdout;
    const bad = await t.cli(["keys", "create", "--scopes", "read,owner"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("[invalid_request]");
    expect(bad.stderr).toContain('"owner" is not a scope');
    expect((await t.cli(["keys", "list", "--json"])).stdout).toBe(before);
  });

  it("--scopes goes with create only (exit 2)", async () => {
    expect((await t.cli(["keys", "list", "--scopes", "read"])).code).toBe(2);
  });
});
