/**
 * Whole jobs through the synthesized job flow run by the real interpreter, with the real steps,
 * simulator, dynalite and s3rver (Retry and Catch are the definition's own; only its waits are
 * scaled down). A truncated download is retried and is never stored or recorded as a success.
 */
import { ListMultipartUploadsCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { ExecutionError, runJobFlowLocally } from "@reelay/flow/run-local";
import { synthJobFlowDefinition } from "@reelay/flow/synth-definition";
import { guardedFetch } from "@reelay/core/adapters";
import { outputFetchPolicy } from "@reelay/core/domain";
import {
  harnessPerTest,
  queuedJob,
  type Harness,
} from "../../packages/core/test/usecases/pipeline/harness.ts";
import { jobFlowHandlers } from "@reelay/local/handlers";

const MB = 1024 * 1024;
const definition = synthJobFlowDefinition();
const harness = harnessPerTest();

/** The local stack's wiring (guarded fetch, loopback allowed) over 20 MB outputs: a cut comes after the first 8 MiB part. */
function start(policy = outputFetchPolicy("local")): Promise<Harness> {
  return harness({ outputBytes: 20 * MB }, { fetch: guardedFetch(policy) });
}

async function run(h: Harness, prompt: string): Promise<{ jobId: string; result: unknown }> {
  const job = await queuedJob(h.deps, { model: "gamma-3.1", prompt });
  // 10 s retry intervals become 10 ms; 2 s waits 2 ms.
  const result = await runJobFlowLocally({
    definition,
    handlers: jobFlowHandlers(h.deps),
    input: { jobId: job.id },
    executionName: job.id,
    waitScale: 0.001,
  }).catch((error: unknown) => error);
  return { jobId: job.id, result };
}

async function storedKeys(h: Harness, jobId: string): Promise<string[]> {
  const answer = await h.aws.s3.send(
    new ListObjectsV2Command({ Bucket: h.aws.bucket, Prefix: `outputs/${jobId}/` }),
  );
  return (answer.Contents ?? []).map((object) => object.Key ?? "");
}

async function openUploads(h: Harness): Promise<number> {
  return (
    (await h.aws.s3.send(new ListMultipartUploadsCommand({ Bucket: h.aws.bucket }))).Uploads
      ?.length ?? 0
  );
}

describe("truncated downloads through the whole job flow", () => {
  it("[[sim:truncate times=1]]: the first download is cut, the flow's Retry downloads again, and the job succeeds with exactly the simulator's bytes", async () => {
    const h = await start();
    const { jobId, result } = await run(h, "a paper boat [[sim:truncate times=1]]");
    expect(result).toEqual({ jobId, status: "succeeded" });
    const job = await h.deps.jobs.require(jobId);
    const task = h.sim.task(job.upstreamTaskId ?? "");
    expect(job.status).toBe("succeeded");
    expect(job.outputs).toEqual([
      expect.objectContaining({
        key: `outputs/${jobId}/video.mp4`,
        bytes: task?.outputBytes,
        sha256: task?.outputSha256,
      }),
    ]);
    expect(h.sim.counters().downloadsByTask[job.upstreamTaskId ?? ""]).toBe(2);
    expect(h.sim.counters().faultsInjected.truncate).toBe(1);
    expect(await openUploads(h)).toBe(0);
    expect((await h.events.readAll()).map((event) => event["detail-type"])).toEqual([
      "Generation Succeeded",
    ]);
  });

  it("[[sim:truncate]] on every download: the retries run out and the job ends failed with download_truncated, no video stored, never succeeded", async () => {
    const h = await start();
    const { jobId, result } = await run(h, "a paper boat [[sim:truncate]]");
    expect(result).toBeInstanceOf(ExecutionError);
    const job = await h.deps.jobs.require(jobId);
    expect(job.status).toBe("failed");
    expect(job.error?.code).toBe("download_truncated");
    expect(job.outputs ?? []).toEqual([]);
    expect(job.history.map((entry) => entry.status)).not.toContain("succeeded");
    // One try and the definition's 5 retries of ReelayTransientError.
    expect(h.sim.counters().downloadsByTask[job.upstreamTaskId ?? ""]).toBe(6);
    expect((await storedKeys(h, jobId)).filter((key) => key.endsWith("video.mp4"))).toEqual([]);
    expect(await openUploads(h)).toBe(0);
    expect((await h.events.readAll()).map((event) => event["detail-type"])).toEqual([
      "Generation Failed",
    ]);
  });

  it("a guard refusal is permanent: with the AWS policy the simulator's loopback URL fails the job url_forbidden on the first download, not retried", async () => {
    const h = await start(outputFetchPolicy("aws"));
    const { jobId, result } = await run(h, "a paper boat");
    expect(result).toBeInstanceOf(ExecutionError);
    const job = await h.deps.jobs.require(jobId);
    expect(job.status).toBe("failed");
    expect(job.error?.code).toBe("url_forbidden");
    expect(h.sim.counters().downloadsByTask[job.upstreamTaskId ?? ""] ?? 0).toBe(0);
    expect((await storedKeys(h, jobId)).filter((key) => key.endsWith("video.mp4"))).toEqual([]);
  });
});
