/**
 * Like the real service, the simulator fetches a task's material from its URLs after the create,
 * and records each fetch without the URL's query (which may hold a signature).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { pollUntil, post, sim } from "./helpers.ts";

let host: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (host ? host.close(() => resolve()) : resolve())));

/** A material host answering 200 with a few bytes; the paths it was asked for. */
async function materialHost(): Promise<{ origin: string; asked: string[] }> {
  const asked: string[] = [];
  host = createServer((req, res) => {
    asked.push(req.url ?? "");
    res.end("bytes");
  });
  await new Promise<void>((resolve) => host?.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(host.address() as AddressInfo).port}`, asked };
}

describe("material fetches", () => {
  it("fetches a create's first frame and reference URLs and records each without its query, marking a presigned one", async () => {
    const { origin, asked } = await materialHost();
    const s = await sim();
    const frame = `${origin}/uploads/upl_1?X-Amz-Signature=abc&X-Amz-Expires=900`;
    const answer = await post(s, "/video/generations", {
      model: "gamma-3.1",
      prompt: "the boat sails off",
      frame_images: [{ type: "image_url", frame_type: "first_frame", image_url: { url: frame } }],
      input_references: [{ type: "video_url", video_url: `${origin}/clip.mp4` }],
    });
    expect(answer.status).toBe(200);
    const fetches = await pollUntil(
      async () => s.counters().materialFetches,
      (list) => list.length === 2,
    );
    expect(fetches).toEqual(
      expect.arrayContaining([
        { url: `${origin}/uploads/upl_1`, signed: true, status: 200 },
        { url: `${origin}/clip.mp4`, signed: false, status: 200 },
      ]),
    );
    expect(asked).toEqual(
      expect.arrayContaining(["/uploads/upl_1?X-Amz-Signature=abc&X-Amz-Expires=900", "/clip.mp4"]),
    );
  });
});
