/**
 * The official `openai` npm client against reelay's POST /v1/images/edits on the local stack, as a
 * user's code would call it (the client is a dev dependency of this package, so the test lives here).
 */
import { createHash } from "node:crypto";
import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upstreamTaskOf } from "../../../test/e2e/support/upstream-task.ts";
import { solidPng } from "../../simulator/src/png.ts";
import { startTestStack, type TestStack } from "../../../test/e2e/support/stack.ts";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
}, 60_000);
afterAll(() => stack?.dispose());

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

describe("POST /v1/images/edits with the openai client", () => {
  it("the openai client's images.edit with Prefer: wait returns data[0].url whose bytes are a PNG; the upload went upstream as a reference", async () => {
    const client = new OpenAI({ apiKey: stack.apiKey, baseURL: `${stack.url}/v1`, maxRetries: 0 });
    const upload = solidPng("edit-me");
    const result = await client.images.edit(
      {
        image: await toFile(upload, "photo.png", { type: "image/png" }),
        prompt: "make it sunset orange",
        model: "deltaq2-image",
        size: "1024x1024",
      },
      { headers: { Prefer: "wait=30" } },
    );
    const url = result.data?.[0]?.url;
    expect(url).toBeDefined();
    expect(typeof result.created).toBe("number");
    const bytes = new Uint8Array(await (await fetch(url!)).arrayBuffer());
    expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);

    const jobId = new URL(url!).pathname.match(/outputs\/(imgtsk_[0-9A-Z]{26})\//)?.[1];
    expect(jobId).toBeDefined();
    const upstream = await upstreamTaskOf(stack, jobId!);
    const refs = (
      upstream.request as {
        image_config: { reference_images: { url: string }[]; aspect_ratio: string };
      }
    ).image_config;
    expect(refs.aspect_ratio).toBe("1:1");
    expect(refs.reference_images).toHaveLength(1);
    const sent = new Uint8Array(await (await fetch(refs.reference_images[0]!.url)).arrayBuffer());
    expect(sha256(sent)).toBe(sha256(upload));
  }, 60_000);

  it("images.edit without the wait answers the task (the client sees no data yet)", async () => {
    const client = new OpenAI({ apiKey: stack.apiKey, baseURL: `${stack.url}/v1`, maxRetries: 0 });
    const result = (await client.images.edit({
      image: await toFile(solidPng("x"), "x.png", { type: "image/png" }),
      prompt: "x",
    })) as unknown as { task_id: string; status: string; data?: unknown };
    expect(result.task_id).toMatch(/^imgtsk_/);
    expect(result.status).toBe("queued");
    expect(result.data).toBeUndefined();
  }, 30_000);

  it("images.edit with response_format b64_json is refused: the client throws a 400 naming response_format=url", async () => {
    const client = new OpenAI({ apiKey: stack.apiKey, baseURL: `${stack.url}/v1`, maxRetries: 0 });
    const call = client.images.edit({
      image: await toFile(solidPng("x"), "x.png", { type: "image/png" }),
      prompt: "x",
      response_format: "b64_json",
    });
    await expect(call).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("response_format=url"),
    });
  }, 30_000);
});
