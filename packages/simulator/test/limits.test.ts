import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSimulator } from "../src/index.ts";
import { createVideo, fakeClock, post, sim } from "./helpers.ts";

const BODY = { model: "alpha-2.7", prompt: "a cat surfing" };

/** The headers of a create made with API key `apiKey`. */
function as(apiKey: string): Record<string, string> {
  return { authorization: `Bearer ${apiKey}` };
}

describe("account limits", () => {
  it("maxConcurrent: the create beyond N answers 429 with Retry-After until the earliest task ends, and a JSON error", async () => {
    const clock = fakeClock();
    const s = await sim({ maxConcurrent: 2, generationMs: 5_000, now: clock.now });
    await createVideo(s);
    clock.advance(1_000);
    await createVideo(s);
    const refused = await post(s, "/video/generations", BODY);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("4");
    expect(await refused.json()).toEqual({
      error: { code: "concurrency_limit", message: expect.any(String) },
    });
    expect(s.counters()).toMatchObject({ tasksCreated: 2, limited: 1, inFlight: 2 });
  });

  it("a slot frees when a task ends: the next create goes through", async () => {
    const clock = fakeClock();
    const s = await sim({ maxConcurrent: 1, generationMs: 5_000, now: clock.now });
    await createVideo(s);
    expect((await post(s, "/video/generations", BODY)).status).toBe(429);
    clock.advance(5_000);
    expect(s.counters().inFlight).toBe(0);
    expect((await post(s, "/video/generations", BODY)).status).toBe(200);
    expect(s.counters()).toMatchObject({ tasksCreated: 2, peakInFlight: 1 });
  });

  it("a refused create makes no task and leaves its idempotency key unused; a repeat of a made task is never refused", async () => {
    const clock = fakeClock();
    const s = await sim({ maxConcurrent: 1, generationMs: 5_000, now: clock.now });
    const first = await createVideo(s, "first", { "x-idempotency-key": "k1" });
    expect((await post(s, "/video/generations", BODY, { "x-idempotency-key": "k2" })).status).toBe(
      429,
    );
    // The first create again, while the account is full: the same task, not a 429.
    expect(await createVideo(s, "first", { "x-idempotency-key": "k1" })).toBe(first);
    clock.advance(5_000);
    const second = await createVideo(s, "a cat surfing", { "x-idempotency-key": "k2" });
    expect(second).not.toBe(first);
    expect(s.counters().tasksByKey).toEqual({ k1: 1, k2: 1 });
  });

  it("createRate: a second create within 1/rate seconds answers 429 with Retry-After", async () => {
    const clock = fakeClock();
    const s = await sim({ createRate: 0.5, now: clock.now });
    await createVideo(s);
    const refused = await post(s, "/video/generations", BODY);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("rate_limit");
    clock.advance(2_000);
    expect((await post(s, "/video/generations", BODY)).status).toBe(200);
  });

  it("a task that never finishes holds its place for 60 s (scaled) and then no longer counts", async () => {
    const clock = fakeClock();
    const s = await sim({ maxConcurrent: 1, timeScale: 0.5, now: clock.now });
    await createVideo(s, "stuck", { "x-sim-fault": "never_finish" });
    const refused = await post(s, "/video/generations", BODY);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("30");
    clock.advance(30_000);
    expect(s.counters().inFlight).toBe(0);
    expect((await post(s, "/video/generations", BODY)).status).toBe(200);
  });

  it("unset limits refuse nothing", async () => {
    const s = await sim();
    for (let i = 0; i < 5; i++) await createVideo(s);
    expect(s.counters()).toMatchObject({ tasksCreated: 5, limited: 0, peakInFlight: 5 });
  });

  it("maxConcurrent is per API key: a full key is refused while another still creates, and the counters say which", async () => {
    const clock = fakeClock();
    // Without apiKey the simulator takes any bearer token, each its own account.
    const s = await sim({
      apiKey: undefined,
      maxConcurrent: 1,
      generationMs: 5_000,
      now: clock.now,
    });
    await createVideo(s, "a", as("alice"));
    expect((await post(s, "/video/generations", BODY, as("alice"))).status).toBe(429);
    await createVideo(s, "b", as("bob"));
    expect(s.counters()).toMatchObject({
      tasksCreated: 2,
      limited: 1,
      limitedByApiKey: { alice: 1 },
      inFlight: 2,
      inFlightByApiKey: { alice: 1, bob: 1 },
      peakInFlight: 2,
      peakInFlightByApiKey: { alice: 1, bob: 1 },
    });
    clock.advance(5_000);
    // The peaks stay; what is in flight now follows the tasks' ends.
    expect(s.counters()).toMatchObject({
      inFlight: 0,
      inFlightByApiKey: {},
      peakInFlightByApiKey: { alice: 1, bob: 1 },
    });
  });

  it("createRate is per API key: another key creates within the first key's interval", async () => {
    const clock = fakeClock();
    const s = await sim({ apiKey: undefined, createRate: 1, now: clock.now });
    await createVideo(s, "a", as("alice"));
    const refused = await post(s, "/video/generations", BODY, as("alice"));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    await createVideo(s, "b", as("bob"));
    expect(s.counters().limitedByApiKey).toEqual({ alice: 1 });
  });

  it("a create's task counts toward its key's peak however long the create's own work takes (a stall past the task's end)", async () => {
    // Every read of the clock is a second later than the one before: the task (50 ms) has ended
    // by any read after the one that made it, as after a stall of a loaded machine.
    let t = 1_700_000_000_000;
    const s = await sim({ apiKey: undefined, generationMs: 50, now: () => (t += 1_000) });
    await createVideo(s, "a", as("alice"));
    expect(s.counters()).toMatchObject({ inFlight: 0, peakInFlightByApiKey: { alice: 1 } });
  });

  it("an image task made on chat/completions holds a place like a video task", async () => {
    const clock = fakeClock();
    const s = await sim({ maxConcurrent: 1, generationMs: 5_000, now: clock.now });
    const chat = {
      model: "deltaq2-image",
      messages: [{ role: "user", content: "a red fox" }],
      modalities: ["image", "text"],
    };
    expect((await post(s, "/chat/completions", chat)).status).toBe(200);
    const refused = await post(s, "/video/generations", BODY);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect((await post(s, "/chat/completions", chat)).status).toBe(429);
    expect(s.counters()).toMatchObject({ tasksCreated: 1, limited: 2, inFlight: 1 });
  });

  it("after a restart with a new API key, tasks still in flight count against it, and no key is written to the state file", async () => {
    const clock = fakeClock();
    const stateFile = join(await mkdtemp(join(tmpdir(), "sim-limits-")), "tasks.jsonl");
    const options = { maxConcurrent: 1, generationMs: 5_000, now: clock.now, stateFile };
    const first = await startSimulator({ ...options, apiKey: "first-key" });
    await createVideo(first, "a", as("first-key"));
    await first.close();
    const second = await sim({ ...options, apiKey: "second-key" });
    expect(second.counters().inFlightByApiKey).toEqual({ "second-key": 1 });
    expect((await post(second, "/video/generations", BODY, as("second-key"))).status).toBe(429);
    expect(await readFile(stateFile, "utf8")).not.toContain("first-key");
  });
});
