/**
 * Acceptance: a plain client of the service contract, pointed at the local stack, gets the
 * simulator's video back, durably copied to S3, with one terminal event.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  eventsFor,
  getJson,
  objectExists,
  objectText,
  sha256OfUrl,
  startTestStack,
  type TestStack,
  STACK_START_MS,
  waitFor,
} from "./support/stack.ts";

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
}, STACK_START_MS);
afterAll(async () => {
  await stack?.dispose();
});

/** What a client written for the upstream does (docs/contract.md §4.1, §4.2, §3): create, then GET every 2 s. */
async function contractClient(
  baseUrl: string,
  apiKey: string,
  body: object,
): Promise<{ taskId: string; status: string; videoUrl?: string }> {
  const created = await fetch(`${baseUrl}/video/generations`, {
    method: "POST",
    headers: bearer(apiKey),
    body: JSON.stringify(body),
  });
  if (!created.ok) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const createdBody = (await created.json()) as {
    service_task?: { task_id?: string };
    task_id?: string;
  };
  const taskId = createdBody.service_task?.task_id ?? createdBody.task_id;
  if (taskId === undefined) throw new Error("no task id in the create answer");
  for (let polls = 0; polls < 30; polls++) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const answer = await fetch(`${baseUrl}/video/tasks/${encodeURIComponent(taskId)}`, {
      headers: bearer(apiKey),
    });
    const task = (await answer.json()) as {
      service_task?: { status?: string; output?: { video_url?: string } };
      status?: string;
      video_url?: string;
    };
    const status = (task.service_task?.status ?? task.status ?? "").toLowerCase();
    const videoUrl = task.service_task?.output?.video_url ?? task.video_url;
    if (
      videoUrl !== undefined ||
      ["succeeded", "completed", "success", "failed", "error", "cancelled"].includes(status)
    ) {
      return { taskId, status, ...(videoUrl === undefined ? {} : { videoUrl }) };
    }
  }
  throw new Error(`task ${taskId} did not end within 30 polls`);
}

describe("the local stack, seen by a plain client of the service contract", () => {
  it("POST then GET every 2 s ends with a URL whose bytes are the simulator's video; the job, S3 copy, manifest and one event agree", async () => {
    const result = await contractClient(`${stack.url}/v1`, stack.apiKey, {
      model: "gamma-3.1",
      prompt: "a paper boat in the rain",
      duration_sec: 4,
    });
    expect(result.status).toBe("succeeded");
    expect(result.videoUrl).toBeDefined();

    const job = (await getJson(`${stack.url}/v1/jobs/${result.taskId}`, stack.apiKey)).body;
    const simTask = stack.simulator?.task(job.upstreamTaskId);
    expect(simTask?.outputSha256).toMatch(/^[0-9a-f]{64}$/);

    const fetched = await sha256OfUrl(result.videoUrl!);
    expect(fetched.sha256).toBe(simTask?.outputSha256);

    expect(job.status).toBe("succeeded");
    expect(job.outputs).toHaveLength(1);
    expect(job.outputs[0]).toMatchObject({
      key: `outputs/${job.id}/video.mp4`,
      bytes: fetched.bytes,
      sha256: fetched.sha256,
      contentType: "video/mp4",
    });

    expect(await objectExists(stack.s3, stack.bucket, `outputs/${job.id}/video.mp4`)).toBe(true);
    // Finish writes the record, then the event, then job.json from the record: a GET can see the
    // job succeeded a moment before job.json does (a fresh-clone run read it still "downloading").
    const manifest = await waitFor("job.json to say succeeded", async () => {
      const text = await objectText(stack.s3, stack.bucket, `outputs/${job.id}/job.json`);
      const read = JSON.parse(text);
      return read.status === "succeeded" ? read : undefined;
    });
    expect(manifest).toMatchObject({ id: job.id, status: "succeeded" });

    const events = await eventsFor(stack.dataDir, job.id);
    expect(events.map((event) => event["detail-type"])).toEqual(["Generation Succeeded"]);
    expect(events[0]?.detail.output).toMatchObject({
      key: `outputs/${job.id}/video.mp4`,
      sha256: fetched.sha256,
    });
  });

  it("GET /healthz is open and names the local S3 endpoint and bucket, and the upstream without its key", async () => {
    const response = await fetch(`${stack.url}/healthz`);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({
      ok: true,
      s3: { endpoint: stack.s3Endpoint, bucket: stack.bucket },
      upstream: "simulator",
    });
  });

  it("every /v1 route refuses a wrong key", async () => {
    const response = await fetch(`${stack.url}/v1/jobs`, { headers: bearer("not-the-key") });
    expect(response.status).toBe(401);
  });
});
