import { describe, expect, it } from "vitest";
import { clientStackForSuite } from "./support/client-stack.ts";

describe("reelay retry against the local stack", () => {
  const t = clientStackForSuite();

  it("a job the upstream refused on content policy: retry unchanged exits 1 [not_retryable]; with --prompt a new job runs to succeeded", async () => {
    // The simulator's task_fail refuses with "Content moderation rejected the prompt".
    const generated = await t.cli([
      "generate",
      "a storm over the sea [[sim:task_fail]]",
      "--model",
      "os-2",
      "--duration",
      "4",
      "--json",
    ]);
    expect(generated.code).toBe(1);
    const failed = JSON.parse(generated.stdout.trim().split("\n").pop()!) as {
      task_id: string;
      error: { class: string };
    };
    const refused = await t.cli(["retry", failed.task_id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("[not_retryable]");
    const retried = await t.cli(["retry", failed.task_id, "--prompt", "a calm sea", "--json"]);
    expect(retried.code).toBe(0);
    const job = JSON.parse(retried.stdout) as { id: string; retryOf: string };
    expect(job.retryOf).toBe(failed.task_id);
    let status = "queued";
    for (
      let tries = 0;
      tries < 100 && !["succeeded", "failed", "cancelled"].includes(status);
      tries++
    ) {
      // The wait reads the API: a `reelay status` process per look costs a CPU-second each.
      await new Promise((resolve) => setTimeout(resolve, 300));
      status = (await t.api<{ status: string }>("GET", `/v1/jobs/${job.id}`)).body.status;
    }
    expect(status).toBe("succeeded");
  }, 60_000);

  it("retry BATCH_ID makes a batch of the completed batch's retryable failures; usage --by batch shows both batches and the failures by class; --by week exits 2", async () => {
    const posted = await t.api<{ id: string }>("POST", "/v1/batches", {
      requests: [
        { model: "os-2", prompt: "a calm lake", duration_sec: 4 },
        {
          model: "os-2",
          prompt: 'a stormy lake [[sim:task_fail reason="the renderer crashed"]]',
          duration_sec: 4,
        },
      ],
    });
    expect(posted.status).toBe(200);
    const batchId = posted.body.id;
    let status = "in_progress";
    for (let tries = 0; tries < 100 && status !== "completed"; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      status = (await t.api<{ status: string }>("GET", `/v1/batches/${batchId}`)).body.status;
    }
    expect(status).toBe("completed");
    const retried = await t.cli(["retry", batchId]);
    expect(retried.code, retried.stderr).toBe(0);
    const retryId = /^(bat_\w+) retries 1 failed line\(s\) of /.exec(retried.stdout)?.[1];
    expect(retryId).toBeDefined();
    expect((await t.cli(["retry", batchId, "--prompt", "x"])).code).toBe(2);

    const usage = await t.cli(["usage", "--by", "batch", "--json"]);
    expect(usage.code, usage.stderr).toBe(0);
    const report = JSON.parse(usage.stdout) as {
      groups: { group: string | null; jobs: number; failures: Record<string, number> }[];
    };
    const original = report.groups.find((group) => group.group === batchId);
    expect(original).toMatchObject({ jobs: 2, failures: { upstream_failed: 1 } });
    expect(report.groups.find((group) => group.group === retryId)?.jobs).toBe(1);
    const text = await t.cli(["usage", "--by", "batch"]);
    expect(text.stdout).toMatch(new RegExp(`${batchId}\\s+2\\s+1\\s+1\\s+0\\s+0\\s+8\\s+0\\s+-`));
    expect(text.stdout).toMatch(/upstream_failed 1/);
    expect((await t.cli(["usage", "--by", "week"])).code).toBe(2);
  }, 60_000);
});
