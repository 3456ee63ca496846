import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClientStack, type ClientStack } from "./support/client-stack.ts";

describe("reelay retry against the local stack", () => {
  let t: ClientStack;
  beforeAll(async () => {
    t = await startClientStack();
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
  });

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
      await new Promise((resolve) => setTimeout(resolve, 300));
      status = JSON.parse((await t.cli(["status", job.id, "--json"])).stdout).status;
    }
    expect(status).toBe("succeeded");
  }, 60_000);
});
