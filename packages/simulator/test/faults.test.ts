import { describe, expect, it } from "vitest";
import { createVideo, fakeClock, finishedVideoUrl, get, pollJson, post, sim } from "./helpers.ts";

const BODY = { model: "alpha-2.7", prompt: "a cat" };

describe("faults", () => {
  it("rate_limit answers 429 with Retry-After and an error body, then stops after `times`", async () => {
    const s = await sim({
      faults: [{ fault: "rate_limit", on: "create", times: 1, retryAfterS: 3 }],
    });
    const first = await post(s, "/video/generations", BODY);
    expect(first.status).toBe(429);
    expect(first.headers.get("retry-after")).toBe("3");
    expect(await first.json()).toMatchObject({ error: { code: "rate_limited" } });
    expect((await post(s, "/video/generations", BODY)).status).toBe(200);
    expect(s.counters().faultsInjected).toEqual({ rate_limit: 1 });
    expect(s.counters().tasksCreated).toBe(1);
  });

  it("server_error answers the configured status with an error body and makes no task", async () => {
    const s = await sim({ faults: [{ fault: "server_error", status: 502 }] });
    const res = await post(s, "/video/generations", BODY);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ error: { code: "server_error" } });
    expect(s.counters().tasksCreated).toBe(0);
  });

  it("reset rejects the fetch without an answer", async () => {
    const s = await sim({ faults: [{ fault: "reset", on: "create" }] });
    await expect(post(s, "/video/generations", BODY)).rejects.toThrow();
    expect(s.counters().tasksCreated).toBe(0);
  });

  it("reset with after:true on create makes the task but loses the answer", async () => {
    const s = await sim({ faults: [{ fault: "reset", on: "create", after: true, times: 1 }] });
    await expect(
      post(s, "/video/generations", BODY, { "x-idempotency-key": "k1" }),
    ).rejects.toThrow();
    expect(s.counters().tasksCreated).toBe(1);
    expect(s.counters().tasksByKey).toEqual({ k1: 1 });
  });

  it("slow delays the answer by delayMs and then answers normally", async () => {
    const s = await sim({ faults: [{ fault: "slow", delayMs: 150, on: "poll" }] });
    const id = await createVideo(s);
    const started = Date.now();
    const res = await get(s, `/video/tasks/${id}`);
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(s.counters().faultsInjected.slow).toBe(1);
  });

  it("business_error answers HTTP 200 with {error:{code,message}} and no task", async () => {
    const s = await sim({ faults: [{ fault: "business_error", on: "create" }] });
    const res = await post(s, "/video/generations", BODY);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({ error: { code: "business_error", message: expect.any(String) } });
    expect(s.counters().tasksCreated).toBe(0);
  });

  it("business_error on poll answers 200 with an error and no status", async () => {
    const s = await sim({ faults: [{ fault: "business_error", on: "poll", times: 1 }] });
    const id = await createVideo(s);
    expect(await pollJson(s, id)).toEqual({
      error: { code: "business_error", message: expect.any(String) },
    });
    expect(await pollJson(s, id)).toMatchObject({ task_id: id });
  });

  it("download_error with times=1 answers 503 once, then the download succeeds", async () => {
    const clock = fakeClock();
    const s = await sim({ now: clock.now });
    const { url } = await finishedVideoUrl(s, clock, "x [[sim:download_error times=1]]");
    expect((await fetch(url)).status).toBe(503);
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect((await ok.arrayBuffer()).byteLength).toBe(Number(ok.headers.get("content-length")));
  });

  it("truncate sends Content-Length N and then closes after fewer than N bytes", async () => {
    const clock = fakeClock();
    const s = await sim({ now: clock.now, outputBytes: 1_000_000 });
    const { url } = await finishedVideoUrl(s, clock, "x [[sim:truncate times=1]]");
    const res = await fetch(url);
    expect(res.headers.get("content-length")).toBe("1000000");
    let received = 0;
    const read = (async () => {
      for await (const chunk of res.body!) received += (chunk as Uint8Array).byteLength;
    })();
    await expect(read).rejects.toThrow();
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(1_000_000);
    const again = await fetch(url);
    expect((await again.arrayBuffer()).byteLength).toBe(1_000_000);
  });

  it("X-Sim-Fault applies to the request that carries it, `times` counted per identical request", async () => {
    const s = await sim();
    const header = {
      "x-sim-fault": "rate_limit;times=2;retry_after=1, server_error;status=500;times=1",
    };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await post(s, "/video/generations", BODY, header)).status);
    expect(statuses).toEqual([429, 429, 500, 200]);
    expect((await post(s, "/video/generations", BODY)).status).toBe(200);
  });

  it("X-Sim-Fault on create attaches task-level faults to the created task", async () => {
    const clock = fakeClock();
    const s = await sim({ now: clock.now });
    const id = await createVideo(s, "x", { "x-sim-fault": "task_fail" });
    const other = await createVideo(s, "y");
    clock.advance(1_000_000);
    expect(await pollJson(s, id)).toMatchObject({ status: "failed" });
    expect(await pollJson(s, other)).toMatchObject({ status: "succeeded" });
  });

  it("a prompt directive with on=create refuses that prompt's create `times` times", async () => {
    const s = await sim();
    const body = { model: "alpha-2.7", prompt: "x [[sim:rate_limit times=1 on=create]]" };
    expect((await post(s, "/video/generations", body)).status).toBe(429);
    expect((await post(s, "/video/generations", body)).status).toBe(200);
  });

  it("probability 0 never fires and probability 1 always fires", async () => {
    const s = await sim({ faults: [{ fault: "server_error", probability: 0 }] });
    for (let i = 0; i < 5; i++) expect((await get(s, "/models")).status).toBe(200);
    s.setFaults([{ fault: "server_error", probability: 1 }]);
    for (let i = 0; i < 5; i++) expect((await get(s, "/models")).status).toBe(503);
  });

  it("task_fail with model fails every task of that model, and only of that model", async () => {
    const clock = fakeClock();
    const s = await sim({
      now: clock.now,
      faults: [{ fault: "task_fail", model: "gamma-3.1", reason: "No GPU for gamma" }],
    });
    const gamma = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(s, "/video/generations", { model: "gamma-3.1", prompt: `g${i}` });
      gamma.push(((await res.json()) as { task_id: string }).task_id);
    }
    const alpha = await createVideo(s);
    clock.advance(1_000_000);
    for (const id of gamma)
      expect(await pollJson(s, id)).toMatchObject({
        status: "failed",
        service_task: { error: { message: "No GPU for gamma" } },
      });
    expect(await pollJson(s, alpha)).toMatchObject({ status: "succeeded" });
  });

  it("a request fault with model refuses that model's creates and leaves the others' alone", async () => {
    const s = await sim({ faults: [{ fault: "server_error", on: "create", model: "gamma-3.1" }] });
    expect((await post(s, "/video/generations", { model: "gamma-3.1", prompt: "g" })).status).toBe(
      503,
    );
    expect((await post(s, "/video/generations", BODY)).status).toBe(200);
    expect((await get(s, "/models")).status).toBe(200);
  });

  it("a poll fault with model hits the polls of that model's tasks only", async () => {
    const s = await sim();
    const alpha = await createVideo(s);
    const res = await post(s, "/video/generations", { model: "gamma-3.1", prompt: "g" });
    const gamma = ((await res.json()) as { task_id: string }).task_id;
    s.setFaults([{ fault: "server_error", on: "poll", model: "gamma-3.1" }]);
    expect((await get(s, `/video/tasks/${gamma}`)).status).toBe(503);
    expect((await get(s, `/video/tasks/${alpha}`)).status).toBe(200);
  });

  it("X-Sim-Fault's model=... targets the task made by that create only when the model matches", async () => {
    const clock = fakeClock();
    const s = await sim({ now: clock.now });
    const header = { "x-sim-fault": "task_fail;model=gamma-3.1" };
    const alpha = await createVideo(s, "a", header);
    const res = await post(s, "/video/generations", { model: "gamma-3.1", prompt: "g" }, header);
    const gamma = ((await res.json()) as { task_id: string }).task_id;
    clock.advance(1_000_000);
    expect(await pollJson(s, alpha)).toMatchObject({ status: "succeeded" });
    expect(await pollJson(s, gamma)).toMatchObject({ status: "failed" });
  });

  it("a rule without `on` leaves downloads alone; on:'download' hits them", async () => {
    const clock = fakeClock();
    const s = await sim({ now: clock.now });
    const { url } = await finishedVideoUrl(s, clock);
    s.setFaults([{ fault: "server_error" }]);
    expect((await fetch(url)).status).toBe(200);
    s.setFaults([{ fault: "server_error", on: "download" }]);
    expect((await fetch(url)).status).toBe(503);
  });
});
