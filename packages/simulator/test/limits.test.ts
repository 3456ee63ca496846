import { describe, expect, it } from "vitest";
import { createVideo, fakeClock, post, sim } from "./helpers.ts";

const BODY = { model: "alpha-2.7", prompt: "a cat surfing" };

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
    expect((await post(s, "/video/generations", BODY)).status).toBe(429);
    clock.advance(30_000);
    expect(s.counters().inFlight).toBe(0);
    expect((await post(s, "/video/generations", BODY)).status).toBe(200);
  });

  it("unset limits refuse nothing", async () => {
    const s = await sim();
    for (let i = 0; i < 5; i++) await createVideo(s);
    expect(s.counters()).toMatchObject({ tasksCreated: 5, limited: 0, peakInFlight: 5 });
  });
});
