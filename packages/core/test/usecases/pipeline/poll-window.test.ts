/**
 * The Poll window and the predicted first wait, against the simulator over real HTTP and dynalite.
 * Time is a shared fake clock: the simulator, the steps and the window's pauses all read it, and a
 * pause moves it on at once, so minutes of generation take milliseconds and every look is exact.
 */
import { describe, expect, it } from "vitest";
import { GenerationStatsStore } from "../../../src/adapters/dynamodb/generation-stats-table.ts";
import { generationStatsKey } from "../../../src/domain/polling/generation-key.ts";
import type { FlowState } from "../../../src/domain/pipeline/flow-state.ts";
import { poll } from "../../../src/usecases/pipeline/poll-step.ts";
import { submit } from "../../../src/usecases/pipeline/submit-step.ts";
import { bucketOf, quantileMs } from "../../../src/domain/polling/history.ts";
import {
  DETECT_POLL_MS,
  FIRST_POLL_MARGIN_MS,
  FIRST_POLL_QUANTILE,
  POLL_WINDOW_MS,
  SPARSE_POLL_MS,
} from "../../../src/domain/polling/policy.ts";
import { harnessPerTest, queuedJob, type Harness } from "./harness.ts";

const startHarness = harnessPerTest();
const REQUEST = { model: "gamma-3.1", prompt: "a paper boat", duration_sec: 8 };

interface Clock {
  now(): number;
  /** Every pause the window asked for, in order. */
  pauses: number[];
  advance(ms: number): void;
}

function fakeClock(): Clock {
  let t = Date.parse("2030-01-01T00:00:00Z");
  return {
    now: () => t,
    pauses: [],
    advance(ms) {
      t += ms;
    },
  };
}

async function start(opts: {
  generationMs: number;
  windowMs?: number;
  sleep?: (clock: Clock, h: () => Harness) => (ms: number) => Promise<void>;
}) {
  const clock = fakeClock();
  let harness: Harness | undefined;
  const sleep =
    opts.sleep?.(clock, () => harness!) ??
    (async (ms: number) => {
      clock.pauses.push(ms);
      clock.advance(ms);
    });
  harness = await startHarness(
    { generationMs: opts.generationMs, timeScale: 1, now: clock.now },
    { now: () => new Date(clock.now()), sleep, pollWindowMs: opts.windowMs ?? POLL_WINDOW_MS },
  );
  const h = harness;
  const stats = new GenerationStatsStore(h.aws.ddb, h.aws.tableName);
  h.deps.generationStats = stats;
  return { h, clock, stats };
}

/** Submit, then the state machine's Wait (the clock moves by waitSeconds). */
async function submitAndWait(h: Harness, clock: Clock): Promise<FlowState> {
  const job = await queuedJob(h.deps, REQUEST);
  const state = await submit(h.deps, { jobId: job.id });
  clock.advance(state.waitSeconds * 1000);
  return state;
}

function taskOf(h: Harness) {
  const ids = Object.keys(h.sim.counters().pollsByTask);
  return { id: ids[0]!, polls: h.sim.counters().pollsByTask[ids[0]!] ?? 0 };
}

describe("the first wait", () => {
  it("without a history is the plain first poll delay (2 s)", async () => {
    const { h, clock } = await start({ generationMs: 60_000 });
    const state = await submitAndWait(h, clock);
    expect(state.waitSeconds).toBe(2);
  });

  it("with 20+ samples of the model and duration is their 1 % quantile less 2.5 s, counted from the create", async () => {
    const { h, clock, stats } = await start({ generationMs: 70_000 });
    const key = generationStatsKey({ model: REQUEST.model, request: REQUEST });
    for (let s = 60; s < 80; s++) await stats.record(key, s * 1000);
    const q = quantileMs((await stats.history(key))!, FIRST_POLL_QUANTILE)!;
    const state = await submitAndWait(h, clock);
    expect(state.waitSeconds).toBe(Math.ceil((q - FIRST_POLL_MARGIN_MS) / 1000));
    expect(state.waitSeconds).toBeGreaterThan(55);
  });
});

describe("the Poll window", () => {
  it("looks every DETECT_POLL_MS from the model's 5 % quantile (one sparser step to it from the predicted first look) until the task is done, sees it within that, and records the midpoint", async () => {
    const { h, clock, stats } = await start({ generationMs: 70_000 });
    const key = generationStatsKey({ model: REQUEST.model, request: REQUEST });
    for (let s = 60; s < 80; s++) await stats.record(key, s * 1000);
    const before = (await stats.history(key))!;
    const submitted = await submitAndWait(h, clock);
    const result = await poll(h.deps, submitted);

    expect(result.outcome).toBe("succeeded");
    expect(clock.pauses.length).toBeGreaterThan(1);
    // The first look (at the 1 % quantile less the margin) is 3 s before the 5 % quantile here.
    expect(clock.pauses[0]).toBeGreaterThan(DETECT_POLL_MS);
    expect(clock.pauses[0]).toBeLessThanOrEqual(SPARSE_POLL_MS);
    expect(clock.pauses.slice(1).every((ms) => ms === DETECT_POLL_MS)).toBe(true);
    const task = taskOf(h);
    expect(task.polls).toBe(clock.pauses.length + 1);
    const sim = h.sim.task(task.id)!;
    const seenDoneAt = clock.now();
    expect(seenDoneAt - sim.finishesAt).toBeGreaterThanOrEqual(0);
    expect(seenDoneAt - sim.finishesAt).toBeLessThanOrEqual(DETECT_POLL_MS);

    // One sample more, in the bucket of the midpoint between the last running look and the done look.
    const after = (await stats.history(key))!;
    expect(after.samples).toBe(before.samples + 1);
    const midpoint = seenDoneAt - DETECT_POLL_MS / 2 - sim.createdAt;
    const added = Object.keys(after.buckets).filter(
      (b) => after.buckets[Number(b)] !== before.buckets[Number(b)],
    );
    expect(added).toEqual([String(bucketOf(midpoint))]);
    expect(after.buckets[bucketOf(midpoint)]).toBe((before.buckets[bucketOf(midpoint)] ?? 0) + 1);
  });

  it("keeps its cadence from look to look: a look that takes 400 ms is followed by a pause 400 ms shorter", async () => {
    const { h, clock, stats } = await start({ generationMs: 70_000 });
    const key = generationStatsKey({ model: REQUEST.model, request: REQUEST });
    for (let s = 60; s < 80; s++) await stats.record(key, s * 1000);
    const ask = h.deps.upstream.getVideoTask.bind(h.deps.upstream);
    h.deps.upstream.getVideoTask = async (...args) => {
      const answer = await ask(...args);
      clock.advance(400);
      return answer;
    };
    const result = await poll(h.deps, await submitAndWait(h, clock));
    expect(result.outcome).toBe("succeeded");
    expect(clock.pauses.length).toBeGreaterThan(2);
    expect(clock.pauses.slice(1).every((ms) => ms === DETECT_POLL_MS - 400)).toBe(true);
  });

  it("hands back to the state machine when the window is used up, with the next pause as waitSeconds", async () => {
    const { h, clock } = await start({ generationMs: 60_000, windowMs: 10_000 });
    const submitted = await submitAndWait(h, clock);
    const result = await poll(h.deps, submitted);
    // No history: the backoff schedule. Looks at 2, 5 and 9.5 s; the next (at 14.5 s) is past the window.
    expect(result.outcome).toBe("running");
    expect(clock.pauses).toEqual([3000, 4500]);
    expect(result.polls).toBe(3);
    expect(result.waitSeconds).toBe(5);
    expect(result.runningSeenAt).toBe(new Date(clock.now()).toISOString());
    expect(taskOf(h).polls).toBe(3);
  });

  it("with no window (pollWindowMs 0) makes exactly one look", async () => {
    const { h, clock } = await start({ generationMs: 60_000, windowMs: 0 });
    const result = await poll(h.deps, await submitAndWait(h, clock));
    expect(result.outcome).toBe("running");
    expect(clock.pauses).toEqual([]);
    expect(taskOf(h).polls).toBe(1);
  });

  it("ends at once, still running, when its pause is interrupted (the process is stopping)", async () => {
    const { h, clock } = await start({
      generationMs: 60_000,
      sleep: () => async () => {
        throw new Error("stopping");
      },
    });
    const result = await poll(h.deps, await submitAndWait(h, clock));
    expect(result.outcome).toBe("running");
    expect(result.polls).toBe(1);
    expect(result.waitSeconds).toBe(3);
    expect((await h.deps.jobs.require(result.jobId)).lastError).toBeUndefined();
  });

  it("stops without asking the upstream again when the job is cancelled during a pause", async () => {
    const { h, clock } = await start({
      generationMs: 60_000,
      sleep: (c, harness) => async (ms) => {
        c.advance(ms);
        const [job] = (await harness().deps.jobs.list()).jobs;
        await harness().deps.jobs.transition(job!.id, { from: ["running"], to: "cancelled" });
      },
    });
    const result = await poll(h.deps, await submitAndWait(h, clock));
    expect(result.outcome).toBe("failed");
    expect(result.error?.code).toBe("cancelled");
    expect(taskOf(h).polls).toBe(1);
  });

  it("fails the job with code timeout at the first look past the deadline", async () => {
    const { h, clock } = await start({ generationMs: 60_000 });
    h.deps.jobTimeoutS = 20;
    const result = await poll(h.deps, await submitAndWait(h, clock));
    expect(result.outcome).toBe("failed");
    expect(result.error?.code).toBe("timeout");
    expect(clock.now() - Date.parse(result.deadlineAt)).toBeGreaterThanOrEqual(0);
    expect(clock.now() - Date.parse(result.deadlineAt)).toBeLessThan(5_000);
  });
});
