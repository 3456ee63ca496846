/**
 * Images end to end on the local stack: the chat form becomes an image job through the same state
 * machine, whether the upstream answers with a task to poll or with the images at once, and every
 * output image lands in outputs/<jobId>/ byte for byte as the upstream made it. (The OpenAI
 * client's images.edit is in packages/api/test/images-openai.test.ts, where `openai` resolves.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upstreamTaskOf } from "./support/upstream-task.ts";
import {
  getJson,
  objectExists,
  postJson,
  sha256OfUrl,
  startTestStack,
  waitFor,
  type TestStack,
} from "./support/stack.ts";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
}, 60_000);
afterAll(() => stack?.dispose());

function imageBody(prompt: string, count?: number) {
  return {
    model: "deltaq2-image",
    messages: [{ role: "user", content: prompt }],
    modalities: ["image", "text"],
    image_config: { aspect_ratio: "1:1", image_size: "2K" },
    ...(count === undefined ? {} : { output_image_count: count }),
  };
}

async function finishedImageTask(taskId: string): Promise<any> {
  return waitFor(`image task ${taskId} to end`, async () => {
    const { body } = await getJson(`${stack.url}/v1/image/tasks/${taskId}`, stack.apiKey);
    return ["succeeded", "failed", "cancelled"].includes(body.status) ? body : undefined;
  });
}

/** Every image reported is the upstream's output n, stored at outputs/<jobId>/image-<n>.png, served by its URL. */
async function expectCopiesOfUpstream(taskId: string, task: any): Promise<void> {
  const upstream = await upstreamTaskOf(stack, taskId);
  expect(upstream.status).toBe("succeeded");
  expect(task.images.map((image: any) => [image.bytes, image.sha256])).toEqual(
    upstream.outputs.map((output) => [output.bytes, output.sha256]),
  );
  for (const [i, image] of task.images.entries()) {
    expect(await objectExists(stack.s3, stack.bucket, `outputs/${taskId}/image-${i + 1}.png`)).toBe(
      true,
    );
    expect(await sha256OfUrl(image.url)).toEqual({ sha256: image.sha256, bytes: image.bytes });
    expect(task.data[i].url).toBe(image.url);
  }
}

describe("images on the local stack", () => {
  it("an upstream answering with a task to poll: output_image_count 2 ends succeeded with both images copied to outputs/<jobId>/", async () => {
    const created = await postJson(
      `${stack.url}/v1/chat/completions`,
      stack.apiKey,
      imageBody("two red apples", 2),
    );
    expect(created.status).toBe(200);
    const taskId: string = created.body.task_id;
    expect(taskId).toMatch(/^imgtsk_/);
    const task = await finishedImageTask(taskId);
    expect(task.status).toBe("succeeded");
    expect(task.images).toHaveLength(2);
    await expectCopiesOfUpstream(taskId, task);
    const { body: job } = await getJson(`${stack.url}/v1/jobs/${taskId}`, stack.apiKey);
    expect(job.upstreamTaskId).toMatch(/^imgtsk_/);
  }, 60_000);

  it("an upstream answering synchronously with image URLs: the job ends succeeded with the images copied, no task polled", async () => {
    stack.simulator?.setOptions({ syncImages: true });
    try {
      const created = await postJson(
        `${stack.url}/v1/chat/completions`,
        stack.apiKey,
        imageBody("one blue pear"),
      );
      const taskId: string = created.body.task_id;
      const task = await finishedImageTask(taskId);
      expect(task.status).toBe("succeeded");
      expect(task.images).toHaveLength(1);
      await expectCopiesOfUpstream(taskId, task);
      const { body: job } = await getJson(`${stack.url}/v1/jobs/${taskId}`, stack.apiKey);
      expect(job.upstreamTaskId).toBeNull();
      expect(job.polls).toBe(0);
    } finally {
      stack.simulator?.setOptions({ syncImages: false });
    }
  }, 60_000);

  it("a video body on /v1/chat/completions is 400 wrong_endpoint", async () => {
    const answer = await postJson(`${stack.url}/v1/chat/completions`, stack.apiKey, {
      model: "gamma-3.1",
      prompt: "a boat",
      duration_sec: 8,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("wrong_endpoint");
  });
});
