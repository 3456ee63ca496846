import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { API_KEY_FILE, loadOrCreateApiKey } from "../src/api-key.ts";

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "reelay-key-"));
  dirs.push(dir);
  return join(dir, "nested", "data");
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("loadOrCreateApiKey", () => {
  it("generates a key once, stores it with mode 0600, and returns the same key on the next start", async () => {
    const dir = await dataDir();
    const first = await loadOrCreateApiKey(dir);
    expect(first).toMatch(/^rl_[A-Za-z0-9_-]{32}$/);
    expect((await stat(join(dir, API_KEY_FILE))).mode & 0o777).toBe(0o600);
    expect(await loadOrCreateApiKey(dir)).toBe(first);
  });

  it("two starts racing on an empty data dir agree on one key", async () => {
    const dir = await dataDir();
    const [a, b] = await Promise.all([loadOrCreateApiKey(dir), loadOrCreateApiKey(dir)]);
    expect(a).toBe(b);
    expect((await readFile(join(dir, API_KEY_FILE), "utf8")).trim()).toBe(a);
  });

  it("a configured REELAY_API_KEY wins and nothing is written", async () => {
    const dir = await dataDir();
    expect(await loadOrCreateApiKey(dir, "configured-key")).toBe("configured-key");
    await expect(stat(join(dir, API_KEY_FILE))).rejects.toMatchObject({ code: "ENOENT" });
  });
});
