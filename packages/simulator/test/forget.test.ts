/**
 * The simulator forgets a task a while after it ended, as a real service's results expire: its
 * tasks in memory and its state file stay bounded however many it made, while a task in progress,
 * or ended recently, is kept and survives a restart.
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createVideo, fakeClock, get, post, sim } from "./helpers.ts";

const HOUR = 3_600_000;

async function lines(file: string): Promise<string[]> {
  return (await readFile(file, "utf8")).split("\n").filter((line) => line !== "");
}

describe("forgetting ended tasks", () => {
  it("a task that ended more than forgetAfterMs ago answers 404, its key makes a new task, and the state file drops it", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "sim-forget-")), "tasks.jsonl");
    const clock = fakeClock();
    const s = await sim({ stateFile: file, now: clock.now, forgetAfterMs: HOUR });
    const old = await createVideo(s, "old", { "x-idempotency-key": "old" });
    clock.advance(30 * 60_000);
    const recent = await createVideo(s, "recent");
    clock.advance(40 * 60_000); // old ended 70 minutes ago, recent 40
    const fresh = await createVideo(s, "fresh"); // a create looks for tasks to forget

    expect((await get(s, `/video/tasks/${old}`)).status).toBe(404);
    expect((await get(s, `/video/tasks/${recent}`)).status).toBe(200);
    expect((await get(s, `/video/tasks/${fresh}`)).status).toBe(200);
    const ids = (await lines(file)).map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids.sort()).toEqual([recent, fresh].sort());
    const again = await post(
      s,
      "/video/generations",
      { model: "alpha-2.7", prompt: "old" },
      { "x-idempotency-key": "old" },
    );
    expect(((await again.json()) as { task_id: string }).task_id).not.toBe(old);
  });

  it("a restart loads only the tasks not yet past forgetting, and rewrites the file without the rest", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "sim-forget-")), "tasks.jsonl");
    const clock = fakeClock();
    const first = await sim({ stateFile: file, now: clock.now, forgetAfterMs: HOUR });
    const old = await createVideo(first, "old");
    clock.advance(30 * 60_000);
    const endless = await createVideo(first, "endless [[sim:never_finish]]");
    await first.close();
    expect(await lines(file)).toHaveLength(2);

    clock.advance(2 * HOUR); // old ended 2.5 hours ago; endless never ends, so is never forgotten
    const second = await sim({ stateFile: file, now: clock.now, forgetAfterMs: HOUR });
    expect(second.task(old)).toBeUndefined();
    expect(second.task(endless)?.status).toBe("running");
    expect(await lines(file)).toHaveLength(1);
  });

  it("tasks in memory and lines in the state file stay bounded while thousands of tasks come and go", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "sim-forget-")), "tasks.jsonl");
    const clock = fakeClock();
    const s = await sim({ stateFile: file, now: clock.now, forgetAfterMs: 10 * 60_000 });
    const made: string[] = [];
    // 2,000 tasks, one every 5 s of the simulator's clock: a task is forgotten 10 minutes after it
    // ended, so about 120 are known at any time (plus up to a minute's between looks).
    for (let i = 0; i < 2_000; i++) {
      made.push(await createVideo(s, `task ${i}`));
      clock.advance(5_000);
    }
    const known = made.filter((id) => s.task(id) !== undefined);
    expect(known.length).toBeLessThanOrEqual(10 * 12 + 12 + 1);
    expect(known).toEqual(made.slice(made.length - known.length));
    expect((await lines(file)).length).toBe(known.length);
  }, 60_000);
});
