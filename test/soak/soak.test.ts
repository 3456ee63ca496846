/**
 * The soak itself, small: the local stack against the simulator under the default fault mix, plain
 * and with the stack SIGKILLed and restarted every few seconds. Everything is real (simulator over
 * HTTP, dynalite, s3rver, the interpreter, the API, `reelay up` as a child process).
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_MIX } from "../../soak/faults.ts";
import { DEFAULTS, runSoak, tidy, type SoakOptions, type SoakResult } from "../../soak/run.ts";

function options(over: Partial<SoakOptions>): SoakOptions {
  const lines: string[] = [];
  return {
    ...DEFAULTS,
    jobs: 12,
    mix: DEFAULT_MIX,
    // Short, so the never_finish job ends timeout well inside the test. A task seen done past its
    // deadline still succeeds, so only a task running at the deadline ends timeout: the soak's
    // tasks take 1-3 s, and the simulator's clock is real time however loaded the machine is.
    jobTimeoutS: 6,
    slackS: 20,
    // A look lists every job (about 10 CPU-ms of the stack and this process each): once a second
    // is soon enough to see the last end, where four a second spent a tenth of a core meanwhile.
    watchEveryMs: 1_000,
    seed: 42,
    log: (line) => lines.push(line),
    ...over,
  };
}

function expectClean(result: SoakResult): void {
  const v = result.verdict;
  expect({
    lost: v.lost,
    duplicates: v.duplicates,
    corrupt: v.corrupt,
    stuck: v.stuck,
    unexpected: v.unexpected,
    listing: v.listing,
    strays: v.strays,
    leaked: v.leaked,
    miscounted: v.miscounted,
    usage: v.usage,
  }).toEqual({
    lost: [],
    duplicates: [],
    corrupt: [],
    stuck: [],
    unexpected: [],
    listing: [],
    strays: [],
    leaked: [],
    miscounted: [],
    usage: [],
  });
  expect(result.problems).toEqual([]);
  expect(result.ok).toBe(true);
  expect(result.line).toMatch(
    /, 0 lost, 0 duplicate upstream tasks, 0 corrupt outputs, 0 stuck, 0 slots leaked, \d+ batches \(0 miscounted\), usage = recount$/,
  );
}

describe("the soak", () => {
  it("20 jobs under the default mix: all four counts zero, failures only upstream_task_failed (task_fail) and timeout (never_finish)", async () => {
    const result = await runSoak(options({ jobs: 20, rate: 10 }));
    await tidy(result, false);
    expectClean(result);
    // The deal gives 20 jobs one of each per-job fault; the transient ones never fail a job.
    expect(result.verdict.failedByCode).toEqual({ upstream_task_failed: 1, timeout: 1 });
    expect(result.verdict.succeeded).toBe(18);
    expect(result.line).toBe(
      "soak: 20 jobs, 18 succeeded, 2 failed {timeout: 1, upstream_task_failed: 1}, 0 lost, 0 duplicate upstream tasks, 0 corrupt outputs, 0 stuck, 0 slots leaked, 1 batches (0 miscounted), usage = recount",
    );
    expect(result.counters.faultsInjected).toMatchObject({
      download_error: 1,
      truncate: 1,
      task_fail: 1,
      never_finish: 1,
    });
    // The transient faults are drawn per request (20 jobs make few: one run drew no 429 at all),
    // so the check is that some were drawn and survived, whichever they were.
    const injected = result.counters.faultsInjected;
    const transient = ["rate_limit", "server_error", "reset", "slow"].map((f) => injected[f] ?? 0);
    expect(transient.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  }, 120_000);

  it("12 jobs with the stack SIGKILLed three times, 2 s after each restart: all four counts zero, only justified failures", async () => {
    // Submitted over the kills (12 jobs at 2 a second), so each kill finds jobs at every stage.
    // A deadline past the kills: a job submitted before one is first looked at only once the stack is
    // back, and on a loaded machine three restarts ate a 6 s deadline whole, so a plain job's one look
    // came after it and a transient answer there ended it timeout. With 20 s a job is looked at before
    // its deadline unless the restarts take that long; the never_finish job still ends timeout.
    const result = await runSoak(
      options({ jobs: 12, rate: 2, killEveryS: 2, kills: 3, jobTimeoutS: 20 }),
    );
    await tidy(result, false);
    expect(result.restarts).toBe(3);
    expectClean(result);
    expect(result.verdict.failedByCode).toEqual({ upstream_task_failed: 1, timeout: 1 });
    // Up to 90 s more when a SIGKILL cut a batch's count or announcement: the sweep completes it.
  }, 300_000);
});
