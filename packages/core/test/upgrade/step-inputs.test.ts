/**
 * An upgrade with jobs in flight: a Step Functions execution keeps the definition it started with
 * and calls the new code. Each Task state's input as 0.1.0's definition passes it
 * (test/fixtures/0.1.0/step-inputs.json) is fed to this release's steps, on a job stored as 0.1.0
 * stored it (no schema version), on dynalite, s3rver and the simulator over HTTP.
 */
import { readFileSync } from "node:fs";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import type { FailureInput, FlowState } from "../../src/domain/pipeline/flow-state.ts";
import { download } from "../../src/usecases/pipeline/download-step.ts";
import { finish } from "../../src/usecases/pipeline/finish-step.ts";
import { poll } from "../../src/usecases/pipeline/poll-step.ts";
import { recordFailure } from "../../src/usecases/pipeline/record-failure-step.ts";
import { submit } from "../../src/usecases/pipeline/submit-step.ts";
import { harnessPerTest, queuedJob, type Harness } from "../usecases/pipeline/harness.ts";

const FIXTURES = JSON.parse(
  readFileSync(
    new URL("../../../../test/fixtures/0.1.0/step-inputs.json", import.meta.url),
    "utf8",
  ),
) as Record<string, unknown>;
const VIDEO = { model: "gamma-3.1", prompt: "a paper boat in the rain" };

const harness = harnessPerTest();

/** The named input with its placeholders filled for `jobId`. */
function input<T>(name: string, jobId: string): T {
  const now = Date.now();
  const values: Record<string, string> = {
    $jobId: jobId,
    $deadlineAt: new Date(now + 10 * 60_000).toISOString(),
    $staleAt: new Date(now - 2 * 60_000).toISOString(),
    $expiredUrl: "http://127.0.0.1:9/expired/video.mp4",
  };
  const text = JSON.stringify(FIXTURES[name]).replace(/"\$\w+"/g, (m) =>
    JSON.stringify(values[m.slice(1, -1)] ?? m),
  );
  return JSON.parse(text) as T;
}

/** The job's item as 0.1.0 stored it: without a schema version (each step's writes stamp it). */
async function asStoredBy010(h: Harness, jobId: string): Promise<void> {
  await h.aws.ddb.send(
    new UpdateCommand({
      TableName: h.aws.tableName,
      Key: { pk: jobId },
      UpdateExpression: "REMOVE schemaVersion",
    }),
  );
}

describe("0.1.0's step inputs, given to this release's steps", () => {
  it("Submit, Poll, Download and Finish take a 0.1.0 job to succeeded with its output stored", async () => {
    const h = await harness();
    const { id } = await queuedJob(h.deps, VIDEO);
    await asStoredBy010(h, id);
    expect((await submit(h.deps, input<FlowState>("Submit", id))).jobId).toBe(id);
    await asStoredBy010(h, id);
    let state = await poll(h.deps, input<FlowState>("Poll", id));
    while (state.outcome === "running") state = await poll(h.deps, state);
    expect(state.outcome).toBe("succeeded");
    await asStoredBy010(h, id);
    // Its URLs were seen two minutes ago: Download asks the task for fresh ones.
    expect((await download(h.deps, input<FlowState>("Download", id))).outcome).toBe("succeeded");
    await asStoredBy010(h, id);
    expect((await finish(h.deps, input<FlowState>("Finish", id))).status).toBe("succeeded");
    const job = await h.deps.jobs.require(id);
    expect(job.outputs?.[0]?.key).toBe(`outputs/${id}/video.mp4`);
  });

  it.each([
    ["RecordFailure after Submit's Catch (States.Timeout)", "step_timeout"],
    ["RecordFailure after the poll's verdict", "upstream_task_failed"],
    ["RecordFailure from LoopBoundReached", "timeout"],
  ])("%s ends a 0.1.0 job failed with %s", async (name, code) => {
    const h = await harness();
    const { id } = await queuedJob(h.deps, VIDEO);
    if (!name.includes("Submit")) await submit(h.deps, { jobId: id });
    await asStoredBy010(h, id);
    const ended = await recordFailure(h.deps, input<FailureInput>(name, id));
    expect(ended.status).toBe("failed");
    expect((await h.deps.jobs.require(id)).error?.code).toBe(code);
  });
});
