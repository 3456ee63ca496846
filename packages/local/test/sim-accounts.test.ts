import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ReelayError } from "@reelay/core/domain";
import { loadConfig } from "@reelay/core/wiring";
import {
  startLocalStack,
  parseSimAccounts,
  type SimulatedAccount,
  type SimulatedAccounts,
  startSimulatedAccounts,
} from "../src/index.ts";

const dirs: string[] = [];
const pools: SimulatedAccounts[] = [];
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "reelay-sim-accounts-"));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function thrown(text: string): ReelayError {
  try {
    parseSimAccounts(text);
  } catch (error) {
    if (error instanceof ReelayError) return error;
    throw error;
  }
  throw new Error(`parseSimAccounts(${JSON.stringify(text)}) did not throw`);
}

function create(account: SimulatedAccount, key = account.apiKey): Promise<Response> {
  return fetch(`${account.url}/video/generations`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "alpha-2.7", prompt: "a cat" }),
  });
}

async function taskId(res: Response): Promise<string> {
  expect(res.status).toBe(200);
  return ((await res.json()) as { task_id: string }).task_id;
}

describe("parseSimAccounts", () => {
  it("reads name:cap pairs in order, spaces around them allowed", () => {
    expect(parseSimAccounts("alpha:4,beta:8")).toEqual([
      { name: "alpha", cap: 4 },
      { name: "beta", cap: 8 },
    ]);
    expect(parseSimAccounts(" eu-1:12 , b2:1 ")).toEqual([
      { name: "eu-1", cap: 12 },
      { name: "b2", cap: 1 },
    ]);
  });

  it.each([
    ["", "needs at least one name:cap"],
    ["alpha", 'entry "alpha" is not name:cap'],
    ["alpha:4:2", 'entry "alpha:4:2" is not name:cap'],
    ["alpha:4,,beta:8", "has an empty entry"],
    ["Alpha:4", 'name "Alpha" must start with a lowercase letter'],
    ["4x:4", 'name "4x" must start'],
    [`${"a".repeat(33)}:4`, "at most 32"],
    ["alpha:0", 'cap of "alpha" must be a positive whole number, got "0"'],
    ["alpha:1.5", 'got "1.5"'],
    ["alpha:-2", 'got "-2"'],
    ["alpha:", 'got ""'],
    ["alpha:4,beta:8,alpha:2", 'names "alpha" twice'],
  ])("%j is refused: invalid_config at --sim-accounts, one line saying %s", (text, says) => {
    const error = thrown(text);
    expect(error.code).toBe("invalid_config");
    expect(error.path).toBe("--sim-accounts");
    expect(error.message.startsWith("--sim-accounts ")).toBe(true);
    expect(error.message).toContain(says);
    expect(error.message).not.toContain("\n");
  });
});

describe("startSimulatedAccounts", () => {
  it("starts one simulator per account: its own URL and key, cap as its limit, ids named for it", async () => {
    const dir = await dataDir();
    const pool = await startSimulatedAccounts(parseSimAccounts("alpha:1,beta:2"), {
      dataDir: dir,
      generationMs: 60_000,
      timeScale: 1,
    });
    pools.push(pool);
    const [alpha, beta] = pool.accounts;
    if (alpha === undefined || beta === undefined) throw new Error("two accounts expected");
    expect(pool.accounts.map((a) => a.name)).toEqual(["alpha", "beta"]);
    expect(Object.keys(pool.simulators)).toEqual(["alpha", "beta"]);
    expect(alpha.url).not.toBe(beta.url);
    expect(alpha.apiKey).not.toBe(beta.apiKey);
    expect(alpha.apiKey).toMatch(/^[A-Za-z0-9_-]{24}$/);

    expect(await taskId(await create(alpha))).toMatch(/^alpha_vidtsk_/);
    const full = await create(alpha);
    expect(full.status).toBe(429);
    expect(await full.json()).toMatchObject({ error: { code: "concurrency_limit" } });
    expect(await taskId(await create(beta))).toMatch(/^beta_vidtsk_/);
    expect(await taskId(await create(beta))).toMatch(/^beta_vidtsk_/);
    expect((await create(beta)).status).toBe(429);
    expect((await create(beta, alpha.apiKey)).status).toBe(401);
  });

  it("keeps each account's tasks in <data dir>/simulator/<name>.jsonl, without its key", async () => {
    const dir = await dataDir();
    const pool = await startSimulatedAccounts([{ name: "alpha", cap: 4 }], {
      dataDir: dir,
      generationMs: 1_000,
      timeScale: 1,
    });
    pools.push(pool);
    const [alpha] = pool.accounts;
    if (alpha === undefined) throw new Error("one account expected");
    const id = await taskId(await create(alpha));
    const file = await readFile(join(dir, "simulator", "alpha.jsonl"), "utf8");
    expect(file).toContain(id);
    expect(file).not.toContain(alpha.apiKey);
  });

  it("passes the create rate on: a second create within 1/rate s is refused", async () => {
    const pool = await startSimulatedAccounts([{ name: "alpha", cap: 4 }], {
      dataDir: await dataDir(),
      generationMs: 1_000,
      timeScale: 1,
      createRate: 0.01,
    });
    pools.push(pool);
    const [alpha] = pool.accounts;
    if (alpha === undefined) throw new Error("one account expected");
    expect((await create(alpha)).status).toBe(200);
    const refused = await create(alpha);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: "rate_limit" } });
  });

  it("close stops every account: connections to each are refused", async () => {
    const pool = await startSimulatedAccounts(parseSimAccounts("alpha:1,beta:1"), {
      dataDir: await dataDir(),
      generationMs: 1_000,
      timeScale: 1,
    });
    await pool.close();
    for (const account of pool.accounts)
      await expect(create(account)).rejects.toMatchObject({ cause: { code: "ECONNREFUSED" } });
  });

  it("when one account cannot start, the call rejects and the started ones are closed", async () => {
    const dir = await dataDir();
    // A directory where beta's state file should be: beta's start fails reading it.
    await mkdir(join(dir, "simulator", "beta.jsonl"), { recursive: true });
    await expect(
      startSimulatedAccounts(parseSimAccounts("alpha:1,beta:1"), {
        dataDir: dir,
        generationMs: 1_000,
        timeScale: 1,
      }),
    ).rejects.toMatchObject({ code: "EISDIR" });
  });

  it("a configured pool account whose url is the deployed simulator (an AWS trial stage's) is refused: invalid_config at its url", async () => {
    const config = loadConfig({
      REELAY_PORT: "0",
      REELAY_DATA_DIR: await dataDir(),
      REELAY_UPSTREAMS: JSON.stringify([
        { name: "main", url: "http://127.0.0.1:9/v1", api_key: "k" },
        { name: "trial", url: "simulator", api_key: "k" },
      ]),
    });
    const started = startLocalStack({ config, quiet: true, s3Port: 0, previews: false });
    await expect(started).rejects.toMatchObject({
      code: "invalid_config",
      path: "REELAY_UPSTREAMS[1].url",
      message: expect.stringContaining("--sim-accounts"),
    });
  });
});
