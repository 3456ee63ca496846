/**
 * The upstream client against the REAL simulator: every dialect, every failure shape, and the
 * faults that could make a user pay twice. Acceptance points are named as in the brief.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator, DIALECTS, type Simulator } from "@reelay/simulator";
import { UpstreamClient } from "@reelay/core/adapters";
import type { TaskAnswer } from "@reelay/core/usecases";
import { caught } from "../packages/core/test/adapters/upstream/rejection.ts";

const KEY = "sim-test-key-7f3a";
const VIDEO = { model: "gamma-3.1", prompt: "a lighthouse at dusk", duration_sec: 4 };

let sim: Simulator;
let sleeps: number[];
let client: UpstreamClient;
let keyCounter = 0;

const nextKey = (label: string) => {
  keyCounter += 1;
  return `${label}-${process.pid}-${keyCounter}`;
};
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, generationMs: 300 });
});

afterAll(async () => {
  await sim?.close();
});

beforeEach(() => {
  sim.reset();
  sim.setFaults([]);
  sim.setDialect("standard");
  sleeps = [];
  // Retry-After and backoff waits are recorded, then shortened, so the test does not sit idle.
  client = new UpstreamClient({
    baseUrl: sim.url,
    apiKey: KEY,
    timeoutMs: 5_000,
    sleep: async (ms) => {
      sleeps.push(ms);
      await pause(Math.min(ms, 20));
    },
  });
});

/** Polls until the task leaves "running"; bounded so a stuck task fails the test instead of hanging. */
async function pollToEnd(taskId: string, kind: "video" | "image" = "video"): Promise<TaskAnswer> {
  for (let poll = 0; poll < 400; poll += 1) {
    const answer =
      kind === "video" ? await client.getVideoTask(taskId) : await client.getImageTask(taskId);
    if (answer.state.state !== "running") return answer;
    await pause(25);
  }
  throw new Error(`${kind} task ${taskId} still running after 400 polls`);
}

describe("upstream client vs simulator", () => {
  it.each(DIALECTS.map((dialect) => [dialect]))(
    "acceptance: client finishes a task in every dialect (%s), and the output URL downloads the simulator's bytes",
    async (dialect) => {
      sim.setDialect(dialect);
      const created = await client.createVideo(VIDEO, { idempotencyKey: nextKey(dialect) });
      expect(created.taskId).toMatch(/^vidtsk_/);
      const done = await pollToEnd(created.taskId);
      expect(done.state.state).toBe("succeeded");
      const [url] = done.state.outputUrls;
      expect(url).toBeDefined();
      const download = await fetch(url as string);
      expect(download.status).toBe(200);
      const bytes = Buffer.from(await download.arrayBuffer());
      const task = sim.task(created.taskId);
      expect(bytes.length).toBe(task?.outputBytes);
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(task?.outputSha256);
    },
  );

  it.each(DIALECTS.map((dialect) => [dialect]))(
    "acceptance: client reports the upstream's reason in every failure dialect (%s)",
    async (dialect) => {
      sim.setDialect(dialect);
      const created = await client.createVideo(
        { ...VIDEO, prompt: `[[sim:task_fail]] ${VIDEO.prompt}` },
        { idempotencyKey: nextKey(`fail-${dialect}`) },
      );
      const done = await pollToEnd(created.taskId);
      expect(done.state.state).toBe("failed");
      const reason = sim.task(created.taskId)?.failReason;
      expect(reason).toBeTruthy();
      expect(done.state.error?.message).toContain(reason);
    },
  );

  it("acceptance: a create that meets 429 twice leaves exactly one upstream task", async () => {
    sim.setFaults([{ fault: "rate_limit", on: "create", times: 2, retryAfterS: 1 }]);
    const key = nextKey("rate");
    const created = await client.createVideo(VIDEO, { idempotencyKey: key });
    expect(sleeps).toEqual([1000, 1000]);
    const counters = sim.counters();
    expect(counters.tasksCreated).toBe(1);
    expect(counters.tasksByKey[key]).toBe(1);
    expect(sim.task(created.taskId)?.idempotencyKey).toBe(key);
  });

  it("acceptance: a create whose answer is lost (reset after the task is made) is retried with the same key and makes no second task", async () => {
    sim.setFaults([{ fault: "reset", on: "create", times: 1, after: true }]);
    const key = nextKey("lost");
    const created = await client.createVideo(VIDEO, { idempotencyKey: key });
    const counters = sim.counters();
    expect(counters.createsByKey[key]).toBe(2);
    expect(counters.tasksCreated).toBe(1);
    expect(counters.tasksByKey[key]).toBe(1);
    expect(sim.task(created.taskId)?.idempotencyKey).toBe(key);
    expect((await pollToEnd(created.taskId)).state.state).toBe("succeeded");
  });

  it("acceptance: a business_error on create is upstream_rejected with the upstream's message and makes no task", async () => {
    // Read the simulator's own wording first, through a raw request with a per-request fault.
    const rawAnswer = await fetch(`${sim.url}/video/generations`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${KEY}`,
        "Content-Type": "application/json",
        "X-Sim-Fault": "business_error",
      },
      body: JSON.stringify(VIDEO),
    });
    expect(rawAnswer.status).toBe(200);
    const upstreamMessage = ((await rawAnswer.json()) as { error: { message: string } }).error
      .message;
    sim.reset();

    sim.setFaults([{ fault: "business_error", on: "create", times: 1 }]);
    const error = await caught(client.createVideo(VIDEO, { idempotencyKey: nextKey("biz") }));
    expect(error.code).toBe("upstream_rejected");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(upstreamMessage);
    expect(sim.counters().tasksCreated).toBe(0);
  });

  it("a wrong API key is upstream_auth and the key is not in the error", async () => {
    const wrong = new UpstreamClient({ baseUrl: sim.url, apiKey: "not-the-key-91b2" });
    const error = await caught(wrong.createVideo(VIDEO, { idempotencyKey: nextKey("auth") }));
    expect(error.code).toBe("upstream_auth");
    expect(JSON.stringify([error.message, error.details])).not.toContain("not-the-key-91b2");
  });

  it("a query for an id that was never created is upstream_not_found", async () => {
    expect((await caught(client.getVideoTask("vidtsk_doesnotexist"))).code).toBe(
      "upstream_not_found",
    );
  });

  it("listModels returns the simulator's video models only when asked for video", async () => {
    const models = await client.listModels("video");
    expect(models.map((model) => model.id)).toContain("gamma-3.1");
    expect(models.every((model) => model.modality === "video")).toBe(true);
  });

  describe("images", () => {
    const IMAGE = {
      model: "deltaq2-image",
      messages: [{ role: "user", content: "a red kite" }],
      modalities: ["image", "text"],
    };

    it("an image task is created, polled to success, and its URL serves a PNG", async () => {
      const created = await client.createImage(IMAGE, { idempotencyKey: nextKey("img") });
      expect(created.taskId).toMatch(/^imgtsk_/);
      const done = await pollToEnd(created.taskId as string, "image");
      expect(done.state.state).toBe("succeeded");
      const download = await fetch(done.state.outputUrls[0] as string);
      expect(download.headers.get("content-type")).toBe("image/png");
    });

    it("a synchronous chat answer has no task id and is already succeeded with the image URL", async () => {
      sim.setOptions({ syncImages: true });
      try {
        const created = await client.createImage(IMAGE, { idempotencyKey: nextKey("sync") });
        expect(created.taskId).toBeUndefined();
        expect(created.state.state).toBe("succeeded");
        expect(created.state.outputUrls).toHaveLength(1);
        expect((await fetch(created.state.outputUrls[0] as string)).status).toBe(200);
      } finally {
        sim.setOptions({ syncImages: false });
      }
    });

    it("an images/edits form lost to a reset is sent again with the same key and makes one task", async () => {
      sim.setFaults([{ fault: "reset", on: "create", times: 1, after: true }]);
      const form = new FormData();
      form.set("model", "deltaq2-image");
      form.set("prompt", "make the kite blue");
      form.set(
        "image",
        new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" }),
        "kite.png",
      );
      const key = nextKey("edit");
      const created = await client.editImages(form, { idempotencyKey: key });
      expect(created.state.state).toBe("succeeded");
      expect(created.state.outputUrls).toHaveLength(1);
      expect(sim.counters().createsByKey[key]).toBe(2);
      expect(sim.counters().tasksByKey[key]).toBe(1);
    });
  });
});
