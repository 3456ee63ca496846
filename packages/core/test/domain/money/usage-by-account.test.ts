/** GET /v1/usage?group_by=account: spend per upstream account from each job's attempts. */
import { describe, expect, it } from "vitest";
import { buildJob } from "../../../src/usecases/jobs/create-job.ts";
import type { Job, UpstreamAttempt } from "../../../src/domain/jobs/types.ts";
import { parsePrices } from "../../../src/domain/money/prices.ts";
import { usageReport } from "../../../src/domain/money/report.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";

// os-2 at 0.025 a second: a 4 s job is estimated (and, once charged, costs) 0.1.
const prices = parsePrices(
  JSON.stringify({ currency: "USD", models: { "os-2": { per_second: { default: 0.025 } } } }),
  "test",
);

function job(over: Partial<Job>): Job {
  const validation = validate({ model: "os-2", prompt: "a lighthouse", duration_sec: 4 });
  return { ...buildJob({ validation, source: { type: "api" }, prices }), ...over };
}

const failedTry = (account: string, costMicros: number | null): UpstreamAttempt => ({
  account,
  taskId: `task-${account}`,
  outcome: "failed",
  error: { code: "upstream_task_failed", message: "The task failed." },
  charged: "unknown",
  costMicros,
  endedAt: "2026-11-27T10:00:00.000Z",
});

async function* each(jobs: Job[]): AsyncGenerator<Job> {
  yield* jobs;
}

describe("usage by account", () => {
  it("a job that fell back counts its failed try's cost under that account and the rest under the one it ended on; the totals are the sum", async () => {
    const jobs = [
      job({ status: "succeeded", upstreamTaskId: "t1", upstreamAccount: "alpha" }),
      job({
        status: "succeeded",
        upstreamTaskId: "t2",
        upstreamAccount: "beta",
        fallbacks: [failedTry("alpha", 100_000)],
      }),
    ];
    const report = await usageReport(each(jobs), "account", true);
    const group = (name: string) => report.groups.find((g) => g.group === name);
    expect(group("alpha")).toMatchObject({ jobs: 1, succeeded: 1, cost: 0.2 });
    expect(group("alpha")?.units.video_seconds).toBe(8);
    expect(group("beta")).toMatchObject({ jobs: 1, succeeded: 1, cost: 0.1 });
    expect(report.totals).toMatchObject({ jobs: 2, succeeded: 2, cost: 0.3 });
  });

  it("a job with no account counts under default; an unpriced failed try counts as unpriced where it ran", async () => {
    const jobs = [
      job({ status: "succeeded", upstreamTaskId: "t1" }),
      job({
        status: "failed",
        upstreamTaskId: "t2",
        upstreamAccount: "beta",
        error: { code: "upstream_task_failed", message: "The task failed." },
        fallbacks: [failedTry("gamma", null)],
      }),
    ];
    const report = await usageReport(each(jobs), "account", true);
    expect(report.groups.map((g) => g.group)).toEqual(["beta", "default", "gamma"]);
    expect(report.groups[0]).toMatchObject({ jobs: 1, failed: 1, cost: 0.1, charged_failures: 1 });
    expect(report.groups[1]).toMatchObject({ jobs: 1, cost: 0.1 });
    expect(report.groups[2]).toMatchObject({ jobs: 0, cost: 0, unpriced: 1 });
    expect(report.totals).toMatchObject({ jobs: 2, cost: 0.2, unpriced: 1 });
  });

  it("a job still running is in_progress under its account, its earlier tries not charged yet; by model the fallbacks add to the job's group", async () => {
    const running = job({
      status: "running",
      upstreamTaskId: "t3",
      upstreamAccount: "beta",
      fallbacks: [failedTry("alpha", 100_000)],
    });
    const byAccount = await usageReport(each([running]), "account", true);
    expect(byAccount.groups).toEqual([
      expect.objectContaining({ group: "beta", in_progress: 1, cost: 0 }),
    ]);
    const ended = { ...running, status: "succeeded" as const };
    const byModel = await usageReport(each([ended]), "model", true);
    expect(byModel.groups).toEqual([expect.objectContaining({ group: "os-2", cost: 0.2 })]);
  });
});
