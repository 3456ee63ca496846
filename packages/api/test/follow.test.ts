/**
 * A job's stream behind a buffering proxy (`streamMaxMs`, as the AWS function sets it): each answer
 * ends after its first frames, or after the limit with none, telling the client to reconnect soon;
 * the reconnects with Last-Event-ID add up to the job's whole history. The app in process over
 * dynalite and s3rver (test/e2e/follow.test.ts runs the live stream on the local stack).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { API_KEY, harness, succeed, VALID, type Harness } from "./support/harness.ts";

let aws: LocalAws;
let h: Harness;

beforeAll(async () => {
  aws = await startLocalAws();
  h = await harness(aws, { streamMaxMs: 300, streamPollMs: 20 });
});
afterAll(async () => {
  await aws.stop();
});

/** One whole answer of the stream: its frames (id, event, status) and whether it said `retry`. */
async function answer(id: string, lastEventId?: string) {
  const response = await h.app.request(`/v1/jobs/${id}/events`, {
    headers: {
      Authorization: `Bearer ${API_KEY}`,
      ...(lastEventId === undefined ? {} : { "Last-Event-ID": lastEventId }),
    },
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  const frames = text
    .split("\n\n")
    .filter((block) => block.includes("data:"))
    .map((block) => {
      const field = (name: string) =>
        block
          .split("\n")
          .find((line) => line.startsWith(`${name}:`))
          ?.slice(name.length + 1)
          .trim() ?? "";
      return {
        id: field("id"),
        event: field("event"),
        status: (JSON.parse(field("data")) as { status: string }).status,
      };
    });
  return { frames, retry: text.includes("retry: 1000") };
}

describe("a job's stream in long-poll mode (AWS)", () => {
  it("each answer ends after its first frames, an answer with nothing new ends after the limit, and the reconnects add up to the history once", async () => {
    const created = (await (await h.post(VALID)).json()) as { task_id: string };
    const id = created.task_id;

    const first = await answer(id);
    expect(first.retry).toBe(true);
    expect(first.frames.map((f) => f.status)).toEqual(["queued"]);

    // Nothing changed: the answer waits the limit out and ends empty, still saying retry.
    const idle = await answer(id, first.frames[0]?.id);
    expect(idle).toEqual({ frames: [], retry: true });

    await succeed(h, id, new Uint8Array([1, 2, 3]));
    const last = await answer(id, first.frames[0]?.id);
    expect(last.frames.map((f) => [f.event, f.status])).toEqual([["status", "succeeded"]]);

    // After the end, a reconnect from the last id gets nothing and ends at once.
    const after = await answer(id, last.frames[0]?.id);
    expect(after.frames).toEqual([]);
  });
});
