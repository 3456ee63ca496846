import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClientStack, type ClientStack } from "./support/client-stack.ts";

describe("reelay status and reelay jobs against the local stack", () => {
  let t: ClientStack;
  let id: string;
  beforeAll(async () => {
    t = await startClientStack();
    const created = await t.api<{ task_id: string }>("POST", "/v1/video/generations", {
      model: "gamma-3.1",
      prompt: "a red bicycle",
      duration_sec: 4,
    });
    id = created.body.task_id;
    // A second job, so a page of one has a next page.
    const second = await t.cli([
      "generate",
      "a second job",
      "--model",
      "gamma-3.1",
      "--duration",
      "4",
      "--no-wait",
    ]);
    expect(second.code, second.stderr).toBe(0);
    for (let i = 0; i < 120; i++) {
      const { body } = await t.api<{ status: string }>("GET", `/v1/jobs/${id}`);
      if (body.status === "succeeded") break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // Every test below reads a finished job.
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
  });

  // The real binary, as a user's second terminal runs it: the key comes from the stack's key file.
  it("status prints the job's id, status, model and its S3 output with size and sha256", async () => {
    const result = await t.bin(["status", id]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^${id}  succeeded\\n`));
    expect(result.stdout).toContain("gamma-3.1 (video, text)");
    expect(result.stdout).toMatch(
      new RegExp(
        `output    s3://${t.stack.bucket}/outputs/${id}/\\S+\\n\\s+\\d+ bytes, video/mp4, sha256 [0-9a-f]{64}`,
      ),
    );
  });

  it("status --json prints the API's job view unchanged", async () => {
    const result = await t.cli(["status", id, "--json"]);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as {
      id: string;
      status: string;
      outputs: { sha256: string }[];
    };
    const { body } = await t.api<{ outputs: { sha256: string }[] }>("GET", `/v1/jobs/${id}`);
    expect(printed).toMatchObject({ id, status: "succeeded" });
    expect(printed.outputs[0]?.sha256).toBe(body.outputs[0]?.sha256);
  });

  it("status of an unknown job exits 1 with the API's error code", async () => {
    const result = await t.cli(["status", "vidtsk_00000000000000000000000000"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\[\w*not_found\]/);
  });

  it("status without an id exits 2 (usage)", async () => {
    expect((await t.cli(["status"])).code).toBe(2);
  });

  it("jobs lists the job in a table row with its status, model and output size", async () => {
    const result = await t.cli(["jobs"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split("\n")[0]).toMatch(/^ID\s+STATUS\s+MODEL/);
    expect(result.stdout).toMatch(
      new RegExp(`${id}\\s+succeeded\\s+gamma-3.1\\s+text\\s+\\d+\\s+\\S+\\s+\\d+ bytes s3://`),
    );
  });

  it("jobs --status filters and --json prints the page {data, next_cursor}", async () => {
    const succeeded = JSON.parse(
      (await t.cli(["jobs", "--status", "succeeded", "--json"])).stdout,
    ) as { data: { id: string; status: string }[]; next_cursor: unknown };
    expect(succeeded.data.map((job) => job.id)).toContain(id);
    expect(succeeded.data.every((job) => job.status === "succeeded")).toBe(true);
    expect(succeeded).toHaveProperty("next_cursor");
    const failed = await t.cli(["jobs", "--status", "failed"]);
    expect(failed.stdout).not.toContain(id);
  });

  it("jobs --limit 1 shows one row and how to get the next page", async () => {
    const result = await t.cli(["jobs", "--limit", "1"]);
    expect(result.code).toBe(0);
    const rows = result.stdout.split("\n").filter((line) => line.startsWith("vidtsk_"));
    expect(rows).toHaveLength(1);
    expect(result.stdout).toMatch(/more: reelay jobs --cursor \S+/);
  });

  it("jobs --expiring 24h lists only the jobs whose outputs expire within the window, with when", async () => {
    const batch = await t.api<{ id: string }>("POST", "/v1/batches", {
      requests: [{ model: "gamma-3.1", prompt: "a kite at noon", duration_sec: 4 }],
      retention_days: 0.5,
    });
    expect(batch.status).toBe(200);
    let kept: { id: string; expires_at: string } | undefined;
    for (let i = 0; i < 160 && kept === undefined; i++) {
      const { body } = await t.api<{ data: { id: string; status: string; expires_at: string }[] }>(
        "GET",
        "/v1/jobs?expiring_within=86400",
      );
      kept = body.data.find((job) => job.status === "succeeded");
      if (kept === undefined) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(kept).toBeDefined();
    const within = await t.cli(["jobs", "--expiring", "24h"]);
    expect(within.code, within.stderr).toBe(0);
    expect(within.stdout).toContain("EXPIRES");
    expect(within.stdout).toMatch(new RegExp(`${kept!.id}\\s.*${kept!.expires_at}`));
    expect(within.stdout).not.toContain(id);
    const sooner = await t.cli(["jobs", "--expiring", "1h"]);
    expect(sooner.code, sooner.stderr).toBe(0);
    expect(sooner.stdout).toBe("no job's outputs expire within 1h\n");
    const bad = await t.cli(["jobs", "--expiring", "tomorrow"]);
    expect(bad.code).toBe(2);
  }, 60_000);

  it("jobs --metadata k=v (repeatable) lists only the jobs carrying every pair; a pair without = exits 2", async () => {
    const tagged = await t.cli([
      "generate",
      "a tagged job",
      "--model",
      "gamma-3.1",
      "--duration",
      "4",
      "--metadata",
      "order=42",
      "--metadata",
      "team=blue",
      "--no-wait",
      "--json",
    ]);
    expect(tagged.code, tagged.stderr).toBe(0);
    const taggedId = (JSON.parse(tagged.stdout) as { task_id: string }).task_id;
    const both = await t.cli([
      "jobs",
      "--metadata",
      "order=42",
      "--metadata",
      "team=blue",
      "--json",
    ]);
    expect(both.code, both.stderr).toBe(0);
    const ids = (JSON.parse(both.stdout) as { data: { id: string }[] }).data.map((job) => job.id);
    expect(ids).toEqual([taggedId]);
    const other = await t.cli(["jobs", "--metadata", "order=42", "--metadata", "team=red"]);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toBe("no job carries that metadata\n");
    expect((await t.cli(["jobs", "--metadata", "order"])).code).toBe(2);
  });

  it("jobs with a status the API does not know exits 1 with its invalid_query code", async () => {
    const result = await t.cli(["jobs", "--status", "sleeping"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("[invalid_query]");
  });
});
