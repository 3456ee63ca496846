import { mkdtemp, writeFile, appendFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../src/index.ts";

const running: Simulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()));
});

async function start(stateFile: string, generationMs = 400): Promise<Simulator> {
  const sim = await startSimulator({ stateFile, generationMs, apiKey: "k" });
  running.push(sim);
  return sim;
}

async function create(sim: Simulator, key: string, prompt = "a lighthouse"): Promise<string> {
  const answer = await fetch(`${sim.url}/video/generations`, {
    method: "POST",
    headers: {
      authorization: "Bearer k",
      "content-type": "application/json",
      "x-idempotency-key": key,
    },
    body: JSON.stringify({ model: "os-2", prompt, duration_sec: 4 }),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { task_id: string }).task_id;
}

async function poll(
  sim: Simulator,
  id: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await fetch(`${sim.url}/video/tasks/${id}`, {
    headers: { authorization: "Bearer k" },
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

describe("simulator stateFile", () => {
  it("a restarted simulator still knows its tasks, finishes them on their schedule and serves their video", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "sim-state-")), "tasks.jsonl");
    const first = await start(file);
    const id = await create(first, "job-1");
    await first.close();

    const second = await start(file);
    expect((await poll(second, id)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const done = await poll(second, id);
    expect(done.body.status).toBe("succeeded");
    const video = await fetch(second.task(id)!.outputUrls[0]!);
    expect(video.status).toBe(200);
    expect((await video.arrayBuffer()).byteLength).toBe(second.task(id)!.outputBytes);
  });

  it("an idempotency key used before the restart returns the same task after it, making no second task", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "sim-state-")), "tasks.jsonl");
    const first = await start(file);
    const id = await create(first, "job-2");
    await first.close();
    const second = await start(file);
    expect(await create(second, "job-2")).toBe(id);
    expect(second.counters().tasksCreated).toBe(0);
  });

  it("never-finishing and failing tasks keep their fate, and a line cut short by a crash is skipped", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "sim-state-")), "tasks.jsonl");
    await writeFile(file, "");
    const first = await start(file, 100);
    const never = await create(first, "n", "[[sim:never_finish]] x");
    const fails = await create(first, "f", "[[sim:task_fail]] y");
    await first.close();
    await appendFile(file, '{"id":"vidtsk_cut');
    const second = await start(file, 100);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(second.task(never)?.status).toBe("running");
    expect(second.task(fails)?.status).toBe("failed");
    expect(second.task(fails)?.failReason).toBeTruthy();
  });
});
