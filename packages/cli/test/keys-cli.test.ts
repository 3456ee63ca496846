import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clientStackForSuite } from "./support/client-stack.ts";

describe("reelay keys against the local stack", () => {
  const t = clientStackForSuite();

  async function asKey(key: string, path: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${t.stack.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    });
  }

  it("create prints only the key, which then works and sees only its own jobs; list shows it without the key; revoke makes it 401", async () => {
    const created = await t.cli(["keys", "create", "--name", "ci"]);
    expect(created.code, created.stderr).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^rk_[A-Za-z0-9_-]+$/);
    expect(created.stderr).toMatch(/created key_\w+ \(ci\); the key is shown only this once/);

    const adminJob = await t.api<{ task_id: string }>("POST", "/v1/video/generations", {
      model: "gamma-3.1",
      prompt: "the admin's job",
      duration_sec: 4,
    });
    const own = await asKey(key, "/v1/video/generations", {
      method: "POST",
      body: JSON.stringify({ model: "gamma-3.1", prompt: "the key's job", duration_sec: 4 }),
    });
    expect(own.status).toBe(200);
    const ownId = ((await own.json()) as { task_id: string }).task_id;
    const listed = (await (await asKey(key, "/v1/jobs")).json()) as { data: { id: string }[] };
    expect(listed.data.map((job) => job.id)).toEqual([ownId]);
    expect((await asKey(key, `/v1/jobs/${adminJob.body.task_id}`)).status).toBe(404);

    const list = await t.cli(["keys", "list", "--json"]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).not.toContain(key);
    const record = (
      JSON.parse(list.stdout) as { data: { id: string; name: string; revokedAt?: string }[] }
    ).data.find((k) => k.name === "ci");
    expect(record?.revokedAt).toBeUndefined();

    const revoked = await t.cli(["keys", "revoke", record!.id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`revoked ${record!.id}`);
    expect((await asKey(key, "/v1/jobs")).status).toBe(401);
    expect((await t.cli(["keys", "list"])).stdout).toMatch(
      new RegExp(`${record!.id}\\s+ci\\s+rk_\\S+\\s+\\S+\\s+\\d{4}-`),
    );
  });

  it("a stored key cannot manage keys: keys list with it exits 1 with [scope_missing]", async () => {
    const key = (await t.cli(["keys", "create"])).stdout.trim();
    const result = await t.cli(["keys", "list"], { env: { REELAY_API_KEY: key } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("[scope_missing]");
  });

  it("revoking an unknown key id exits 1 with [key_not_found]; a missing action exits 2", async () => {
    const result = await t.cli(["keys", "revoke", "key_01ARZ3NDEKTSV4RRFFQ69G5FAV"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("[key_not_found]");
    expect((await t.cli(["keys"])).code).toBe(2);
  });

  it("create --budget 50 --period month gives the key a budget that list shows with its use; a bad period exits 2", async () => {
    const created = await t.cli([
      "keys",
      "create",
      "--name",
      "capped",
      "--budget",
      "50",
      "--period",
      "month",
      "--json",
    ]);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout).budget).toEqual({
      amount: 50,
      unit: "currency",
      period: "month",
    });
    const list = await t.cli(["keys", "list"]);
    expect(list.stdout).toMatch(/capped .* 0\/50 per month/);
    const bad = await t.cli(["keys", "create", "--budget", "5", "--period", "week"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--period must be one of day, month, total");
  });

  it("keys budget ID 8 --units raises a units budget the key had used up, so its refused create then goes through; `none` removes the budget; --name with budget exits 2", async () => {
    const created = await t.cli(["keys", "create", "--budget", "4", "--units", "--json"]);
    expect(created.code, created.stderr).toBe(0);
    const { id, key } = JSON.parse(created.stdout) as { id: string; key: string };
    const create = (prompt: string) =>
      asKey(key, "/v1/video/generations", {
        method: "POST",
        body: JSON.stringify({ model: "gamma-3.1", prompt, duration_sec: 4 }),
      });
    expect((await create("four seconds")).status).toBe(200);
    const refused = await create("four more");
    expect(refused.status).toBe(402);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      "budget_exceeded",
    );

    const raised = await t.cli(["keys", "budget", id, "8", "--units"]);
    expect(raised.code, raised.stderr).toBe(0);
    expect(raised.stdout).toMatch(new RegExp(`${id}: 4/8 units per month`));
    expect((await create("four more")).status).toBe(200);

    const removed = await t.cli(["keys", "budget", id, "none", "--json"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout).budget).toBeUndefined();
    expect((await create("no limit now")).status).toBe(200);

    const misuse = await t.cli(["keys", "budget", id, "5", "--name", "x"]);
    expect(misuse.code).toBe(2);
    expect(misuse.stderr).toContain("--name does not go with `reelay keys budget`");
  });

  it("keys limits ID max_queued=1,rate=none sets the key's own limits and prints them as they hold; `none` removes them; a malformed pair exits 2", async () => {
    const created = await t.cli(["keys", "create", "--json"]);
    expect(created.code, created.stderr).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: string };
    const set = await t.cli(["keys", "limits", id, "max_queued=1,rate=none"]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain(`${id}: rate=none, burst=none, max_queued=1, max_in_flight=none`);
    const reset = await t.cli(["keys", "limits", id, "none", "--json"]);
    expect(reset.code, reset.stderr).toBe(0);
    expect(JSON.parse(reset.stdout).limits).toEqual({
      rate: null,
      burst: null,
      max_queued: null,
      max_in_flight: null,
    });
    const bad = await t.cli(["keys", "limits", id, "max_queued"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("keys limits takes name=value pairs");
  });

  it("create --limits rate=5,burst=5,max_queued=20 makes a key with those limits; a malformed pair exits 2, an unknown limit 1 naming it", async () => {
    const created = await t.cli([
      "keys",
      "create",
      "--limits",
      "rate=5,burst=5,max_queued=20,max_in_flight=none",
      "--json",
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout).limits).toEqual({
      rate: 5,
      burst: 5,
      max_queued: 20,
      max_in_flight: null,
    });
    expect((await t.cli(["keys", "create", "--limits", "rate=fast"])).code).toBe(2);
    expect((await t.cli(["keys", "list", "--limits", "rate=5"])).code).toBe(2);
    const unknown = await t.cli(["keys", "create", "--limits", "max_jobs=3"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("[unknown_field]");
    expect(unknown.stderr).toContain("limits.max_jobs");
  });

  it("create shows the key's webhook secret once on stderr (in --json too); rotate-secret prints a new one", async () => {
    const created = await t.cli(["keys", "create", "--name", "hooks"]);
    expect(created.code, created.stderr).toBe(0);
    const secret = /webhook secret .*: (whsec_\S+)/.exec(created.stderr)?.[1];
    expect(secret).toBeDefined();
    const listed = await t.cli(["keys", "list", "--json"]);
    expect(listed.stdout).not.toContain(secret);
    const id = (JSON.parse(listed.stdout) as { data: { id: string; name: string }[] }).data.find(
      (k) => k.name === "hooks",
    )!.id;
    const rotated = await t.cli(["keys", "rotate-secret", id]);
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout.trim()).toMatch(/^whsec_/);
    expect(rotated.stdout.trim()).not.toBe(secret);
    expect(rotated.stderr).toContain("the old one signs beside it for 24 h");
    const json = await t.cli(["keys", "create", "--json"]);
    expect(JSON.parse(json.stdout).webhook_secret).toMatch(/^whsec_/);
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

  it("create --on-sunset successor makes a key whose record says so; another value exits 2, as does --on-sunset beside list", async () => {
    const created = await t.cli(["keys", "create", "--on-sunset", "successor", "--json"]);
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; onSunset?: string; on_sunset?: string };
    expect(key.onSunset ?? key.on_sunset).toBe("successor");
    const bad = await t.cli(["keys", "create", "--on-sunset", "later"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--on-sunset must be one of refuse, successor");
    expect((await t.cli(["keys", "list", "--on-sunset", "refuse"])).code).toBe(2);
  });

  it("create --expires 30d makes a key ending in 30 days; an ISO time is taken as it is; a past one exits 1, a bad one 2", async () => {
    const before = Date.now();
    const created = await t.cli(["keys", "create", "--expires", "30d", "--json"]);
    expect(created.code, created.stderr).toBe(0);
    const life = Date.parse((JSON.parse(created.stdout) as { expires_at: string }).expires_at);
    expect(life - before).toBeGreaterThanOrEqual(30 * 86_400_000 - 1_000);
    expect(life - Date.now()).toBeLessThanOrEqual(30 * 86_400_000);
    const iso = await t.cli(["keys", "create", "--expires", "2031-02-03T04:05:06Z", "--json"]);
    expect((JSON.parse(iso.stdout) as { expires_at: string }).expires_at).toBe(
      "2031-02-03T04:05:06.000Z",
    );
    const past = await t.cli(["keys", "create", "--expires", "2001-01-01T00:00:00Z"]);
    expect(past.code).toBe(1);
    expect(past.stderr).toContain("[invalid_request]");
    expect((await t.cli(["keys", "create", "--expires", "soon"])).code).toBe(2);
    expect((await t.cli(["keys", "list", "--expires", "30d"])).code).toBe(2);
  });

  it("keys list shows when each key expires and was last used", async () => {
    const created = await t.cli(["keys", "create", "--name", "used", "--expires", "2d", "--json"]);
    const record = JSON.parse(created.stdout) as { id: string; key: string; expires_at: string };
    const headers = { authorization: `Bearer ${record.key}` };
    expect((await fetch(`${t.stack.url}/v1/jobs`, { headers })).status).toBe(200);
    const list = await t.cli(["keys", "list"]);
    expect(list.stdout).toMatch(/EXPIRES\s+LAST USED/);
    const row = list.stdout.split("\n").find((line) => line.startsWith(record.id)) ?? "";
    expect(row).toContain(record.expires_at);
    expect(row).toMatch(/\d{4}-\d{2}-\d{2}T\S+Z\s+\S+$/);
    const listed = JSON.parse((await t.cli(["keys", "list", "--json"])).stdout) as {
      data: { id: string; last_used_at?: string }[];
    };
    expect(listed.data.find((k) => k.id === record.id)?.last_used_at).toMatch(/^\d{4}-/);
  });

  it("reelay audit lists the key actions with actor and target, as a table and as --json; --action filters", async () => {
    const created = await t.cli(["keys", "create", "--name", "audited", "--json"]);
    const id = (JSON.parse(created.stdout) as { id: string }).id;
    expect((await t.cli(["keys", "revoke", id])).code).toBe(0);
    const shown = await t.cli(["audit"]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/TIME\s+ACTION\s+ACTOR\s+PROJECT\s+TARGET\s+CHANGE/);
    expect(shown.stdout).toMatch(new RegExp(`key\\.revoked\\s+local\\s+${id}\\s+${id}`));
    expect(shown.stdout).toMatch(
      new RegExp(`key\\.created\\s+local\\s+${id}\\s+${id}\\s+name=audited`),
    );
    const json = await t.cli(["audit", "--json", "--action", "key.revoked", "--limit", "100"]);
    const page = JSON.parse(json.stdout) as { data: { action: string; target: string }[] };
    expect(page.data.every((r) => r.action === "key.revoked")).toBe(true);
    expect(page.data.map((r) => r.target)).toContain(id);
    expect((await t.cli(["audit", "--action", "key.deleted"])).code).toBe(2);
    // The local stack's bus: each record is an Audit line of events.jsonl.
    const lines = (await readFile(join(t.stack.dataDir, "events.jsonl"), "utf8")).split("\n");
    const audits = lines
      .filter((l) => l.includes('"detail-type":"Audit"'))
      .map((l) => JSON.parse(l));
    expect(audits.some((e) => e.detail.action === "key.revoked" && e.detail.target === id)).toBe(
      true,
    );
    const stored = (await t.cli(["keys", "create"])).stdout.trim();
    const refused = await t.cli(["audit"], { env: { REELAY_API_KEY: stored } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("[scope_missing]");
  });
});
