/**
 * The soak over a pool of two simulated accounts behind REELAY_UPSTREAMS, the stack run as
 * `reelay up` in a child process and SIGKILLed and started again: no job lost, one task a job over
 * the pool, no task asked about on an account that did not make it, no slot held at the end.
 * Everything is real (simulators over HTTP, dynalite, s3rver, the interpreter, the API).
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_MIX } from "../../soak/faults.ts";
import { DEFAULTS, runSoak, tidy } from "../../soak/run.ts";

describe("the soak over a pool", () => {
  it("20 jobs over alpha:3 and beta:6 with the stack killed mid-run and restarted: 0 lost, 0 duplicate tasks over the pool, 0 foreign polls, 0 slots leaked", async () => {
    const lines: string[] = [];
    const result = await runSoak({
      ...DEFAULTS,
      jobs: 20,
      // Every fault of the soak's mix, 5xx and resets on creates included (a task made, then its
      // answer lost): a create whose outcome is unknown never moves the job to another account.
      mix: { ...DEFAULT_MIX },
      accounts: [
        { name: "alpha", cap: 3 },
        { name: "beta", cap: 6 },
      ],
      // One SIGKILL about 3 s in, with the 20 jobs (sent over 2 s) in flight on both accounts.
      killEveryS: 3,
      kills: 1,
      rate: 10,
      // Only a task still running at its deadline ends timeout (the never_finish one): the others
      // take 1-3 s by the simulators' real-time clocks, and one seen done late still succeeds.
      jobTimeoutS: 6,
      slackS: 20,
      // A look lists every job (about 10 CPU-ms of the stack and this process each): once a second
      // is soon enough to see the last end, where four a second spent a tenth of a core meanwhile.
      watchEveryMs: 1_000,
      seed: 24,
      log: (line) => lines.push(line),
    });
    await tidy(result, false);
    const v = result.verdict;
    expect(result.restarts, lines.join("\n")).toBe(1);
    expect({
      lost: v.lost,
      duplicates: v.duplicates,
      unrecorded: v.unrecorded,
      foreign: v.foreign,
      leaked: v.leaked,
      stuck: v.stuck,
      unexpected: v.unexpected,
    }).toEqual({
      lost: [],
      duplicates: [],
      unrecorded: [],
      foreign: [],
      leaked: [],
      stuck: [],
      unexpected: [],
    });
    expect(v.pool).toEqual({ accounts: 2, tasks: 20, jobs: 20, fallbacks: 0 });
    expect(result.accounts?.map((a) => [a.name, a.tasksCreated > 0])).toEqual([
      ["alpha", true],
      ["beta", true],
    ]);
    expect(result.line).toMatch(
      /, 0 lost, 0 duplicate upstream tasks, .* 0 slots leaked, .*; pool of 2 accounts: 20 tasks = 20 jobs \+ 0 fallbacks, 0 unrecorded tasks, 0 foreign polls$/,
    );
    expect(result.ok).toBe(true);
  }, 300_000);
});
