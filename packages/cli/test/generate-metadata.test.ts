/** `reelay generate --metadata k=v` (repeatable) against the local stack: the pairs on the job, refusals before anything is sent. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClientStack, type ClientStack } from "./support/client-stack.ts";

describe("reelay generate --metadata", () => {
  let t: ClientStack;
  beforeAll(async () => {
    t = await startClientStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const generate = (...extra: string[]) =>
    t.cli(["generate", "a boat", "--model", "gamma-3.1", "--duration", "4", ...extra]);

  it("keeps every pair on the job as given, a value with '=' and characters outside ASCII included", async () => {
    const result = await generate(
      "--metadata",
      "order=42",
      "--metadata",
      "query=a=b",
      "--metadata",
      "note=ünïcode ✓",
      "--no-wait",
      "--json",
    );
    expect(result.code, result.stderr).toBe(0);
    const { task_id } = JSON.parse(result.stdout) as { task_id: string };
    const { body } = await t.api<{ metadata: Record<string, string> }>(
      "GET",
      `/v1/jobs/${task_id}`,
    );
    expect(body.metadata).toEqual({ order: "42", query: "a=b", note: "ünïcode ✓" });
  });

  it("a pair without KEY= or a key given twice exits 2, sending nothing", async () => {
    const before = await t.api<{ data: unknown[] }>("GET", "/v1/jobs?limit=100");
    for (const [args, said] of [
      [["--metadata", "order"], "--metadata takes KEY=VALUE"],
      [["--metadata", "=42"], "--metadata takes KEY=VALUE"],
      [["--metadata", "order=1", "--metadata", "order=2"], "--metadata order is given twice"],
    ] as const) {
      const result = await generate(...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(said);
    }
    const after = await t.api<{ data: unknown[] }>("GET", "/v1/jobs?limit=100");
    expect(after.body.data).toHaveLength(before.body.data.length);
  });

  it("a key over 40 characters exits 1 with invalid_metadata naming it, sending nothing", async () => {
    const before = await t.api<{ data: unknown[] }>("GET", "/v1/jobs?limit=100");
    const result = await generate("--metadata", `${"k".repeat(41)}=1`, "--json");
    expect(result.code).toBe(1);
    const { error } = JSON.parse(result.stdout) as { error: { code: string; path: string } };
    expect(error).toMatchObject({ code: "invalid_metadata", path: `--metadata.${"k".repeat(41)}` });
    const after = await t.api<{ data: unknown[] }>("GET", "/v1/jobs?limit=100");
    expect(after.body.data).toHaveLength(before.body.data.length);
  });
});
