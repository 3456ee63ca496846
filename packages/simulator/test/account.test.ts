/**
 * One simulator as one account of a pool: task ids that name the account, and an account that goes
 * down (connections refused) and comes back on the same URL with its tasks. Real HTTP throughout.
 */
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { startSimulator } from "../src/index.ts";
import { AUTH, createVideo, get, pollJson, pollUntil, post, sim } from "./helpers.ts";

const BODY = { model: "alpha-2.7", prompt: "a cat" };
const CHAT_IMAGE = {
  model: "deltaq2-image",
  messages: [{ role: "user", content: "a red fox" }],
  modalities: ["image", "text"],
};

/** The error code a plain TCP connection to `origin` ends with, or "connected". */
function tcpOutcome(origin: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** The code under a rejected fetch (undici puts the socket's error in `cause`). */
async function fetchFailure(url: string): Promise<string> {
  try {
    await fetch(url, { headers: AUTH });
    return "answered";
  } catch (error) {
    const cause = (error as { cause?: NodeJS.ErrnoException }).cause;
    return cause?.code ?? String(error);
  }
}

describe("task id prefix", () => {
  it("puts taskIdPrefix before every video and image task id, and poll finds the task by it", async () => {
    const s = await sim({ taskIdPrefix: "alpha_" });
    const id = await createVideo(s);
    expect(id).toMatch(/^alpha_vidtsk_[0-9a-f]{26}$/);
    expect(await pollJson(s, id)).toMatchObject({ task_id: id });
    const image = await post(s, "/chat/completions", CHAT_IMAGE);
    expect(image.status).toBe(200);
    expect(((await image.json()) as { task_id: string }).task_id).toMatch(/^alpha_imgtsk_/);
  });

  it("without taskIdPrefix ids are as before: vidtsk_ and 26 hex digits", async () => {
    const s = await sim();
    expect(await createVideo(s)).toMatch(/^vidtsk_[0-9a-f]{26}$/);
  });

  it("the synchronous chat image answer's id is chatcmpl- and the id's random part, prefix or not", async () => {
    const s = await sim({ taskIdPrefix: "beta_", syncImages: true });
    const res = await post(s, "/chat/completions", CHAT_IMAGE);
    expect(((await res.json()) as { id: string }).id).toMatch(/^chatcmpl-[0-9a-f]{26}$/);
  });
});

describe("down and up", () => {
  it("down refuses new connections (ECONNREFUSED, plain TCP and fetch) and isDown says so", async () => {
    const s = await sim();
    expect(await tcpOutcome(s.origin)).toBe("connected");
    expect(s.isDown).toBe(false);
    await s.down();
    expect(s.isDown).toBe(true);
    expect(await tcpOutcome(s.origin)).toBe("ECONNREFUSED");
    expect(await fetchFailure(`${s.url}/models`)).toBe("ECONNREFUSED");
  });

  it("down ends a request in progress and an idle kept-alive connection instead of leaving them hanging", async () => {
    const s = await sim({ faults: [{ fault: "slow", on: "poll", delayMs: 60_000 }] });
    const id = await createVideo(s);
    const idle = connect(Number(new URL(s.origin).port), "127.0.0.1");
    await new Promise((resolve) => idle.once("connect", resolve));
    const idleClosed = new Promise((resolve) => idle.once("close", resolve));
    const inProgress = get(s, `/video/tasks/${id}`);
    await pollUntil(
      async () => s.counters().polls,
      (polls) => polls === 1,
    );
    const started = Date.now();
    await s.down();
    await expect(inProgress).rejects.toThrow();
    await idleClosed;
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it("up listens on the same URL; a task made before down is there, its clock having run on", async () => {
    const s = await sim({ generationMs: 300 });
    const id = await createVideo(s);
    expect(await pollJson(s, id)).toMatchObject({ status: "running" });
    await s.down();
    await new Promise((resolve) => setTimeout(resolve, 400)); // past the task's end, while down
    await s.up();
    expect(s.isDown).toBe(false);
    expect(await pollJson(s, id)).toMatchObject({ task_id: id, status: "succeeded" });
  });

  it("after up, a repeat of a create made before down answers with the same task: no second task", async () => {
    const s = await sim();
    const key = { "x-idempotency-key": "before-down" };
    const first = await createVideo(s, "a cat", key);
    await s.down();
    await s.up();
    expect(await createVideo(s, "a cat", key)).toBe(first);
    expect(s.counters().tasksCreated).toBe(1);
  });

  it("down twice and up twice are each one change; down and up called together end up listening", async () => {
    const s = await sim();
    await Promise.all([s.down(), s.down()]);
    expect(await tcpOutcome(s.origin)).toBe("ECONNREFUSED");
    await Promise.all([s.up(), s.up()]);
    expect((await post(s, "/video/generations", BODY)).status).toBe(200);
    await Promise.all([s.down(), s.up()]);
    expect(s.isDown).toBe(false);
    expect((await get(s, "/models")).status).toBe(200);
  });

  it("close while down resolves, and up after close is refused", async () => {
    const s = await startSimulator({ generationMs: 200 });
    await s.down();
    await s.close();
    await expect(s.up()).rejects.toThrow(/closed/);
    expect(await tcpOutcome(s.origin)).toBe("ECONNREFUSED");
  });
});
