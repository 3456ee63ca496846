import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClientStack, startClientStack } from "./support/client-stack.ts";

const line = (prompt: string, extra: object = {}) =>
  JSON.stringify({ model: "os-2", prompt, duration_sec: 4, ...extra });

describe("reelay batch against the local stack", () => {
  let t: ClientStack;
  let dir: string;
  beforeAll(async () => {
    t = await startClientStack();
    dir = await mkdtemp(join(tmpdir(), "reelay-batch-"));
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("--wait follows a batch to the end, prints progress lines off a terminal, and exits 0 when all succeeded", async () => {
    const file = join(dir, "three.jsonl");
    await writeFile(file, `${[line("one"), line("two"), line("three")].join("\n")}\n`);
    const result = await t.cli(["batch", file, "--wait"]);
    expect(result.code, result.stderr).toBe(0);
    const id = /(bat_[0-9A-HJKMNP-TV-Z]{26})\s+completed/.exec(result.stdout)?.[1];
    expect(id, result.stdout).toBeDefined();
    expect(result.stdout).toContain("3 succeeded");
    expect(result.stderr).toMatch(new RegExp(`${id}: 3/3 done`));
    const results = await t.cli(["batch", "results", id!]);
    const lines = results.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.line, l.status])).toEqual([
      [1, "succeeded"],
      [2, "succeeded"],
      [3, "succeeded"],
    ]);
  });

  it("--wait exits 1 when a line was rejected; status names the counts", async () => {
    const file = join(dir, "one-bad.jsonl");
    await writeFile(file, `${[line("fine"), line("bad", { duration_sec: 5 })].join("\n")}\n`);
    const result = await t.cli(["batch", file, "--wait", "--json"]);
    expect(result.code).toBe(1);
    const done = JSON.parse(result.stdout) as { id: string; counts: Record<string, number> };
    expect(done.counts).toMatchObject({ succeeded: 1, rejected: 1 });
    const status = await t.cli(["batch", "status", done.id]);
    expect(status.stdout).toContain("1 succeeded, 1 rejected");
  });

  it("--quote makes nothing and names the bad lines", async () => {
    const file = join(dir, "quote.jsonl");
    await writeFile(file, `${[line("a"), line("b", { duration_sec: 5 })].join("\n")}\n`);
    const result = await t.cli(["batch", file, "--quote"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("2 requests: 1 valid, 1 rejected; nothing was made");
    expect(result.stdout).toMatch(/line 2: duration_sec: .*\[duration_not_allowed\]/);
    expect(result.stdout).toContain("estimate: 4 video seconds, 0 images; no price table");
  });

  it("a missing file is a usage error (exit 2)", async () => {
    const result = await t.cli(["batch", join(dir, "nope.jsonl")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("cannot read");
  });
});
