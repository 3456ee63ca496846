/** The pool soak's own parts without a stack: `--accounts` and the pool's checks on made-up evidence. */
import { describe, expect, it } from "vitest";
import { MixError } from "../../soak/faults.ts";
import { type AccountEvidence, parseAccounts } from "../../soak/pool.ts";
import { poolChecks } from "../../soak/pool-verdict.ts";

describe("--accounts", () => {
  it("takes a count, sharing the capacity 1 : 2 : ... : N, or name:cap pairs", () => {
    expect(parseAccounts("3", 24)).toEqual([
      { name: "alpha", cap: 4 },
      { name: "beta", cap: 8 },
      { name: "gamma", cap: 12 },
    ]);
    expect(parseAccounts("1", 5)).toEqual([{ name: "alpha", cap: 5 }]);
    expect(parseAccounts("alpha:4,beta:8")).toEqual([
      { name: "alpha", cap: 4 },
      { name: "beta", cap: 8 },
    ]);
  });

  it.each(["0", "9", "alpha", "alpha:0", "alpha:2,alpha:3"])("refuses %s", (raw) => {
    expect(() => parseAccounts(raw)).toThrow(MixError);
  });
});

/** An account that made the given tasks (id -> key) and was asked about `asked`. */
function account(
  name: string,
  made: Record<string, string>,
  asked: string[] = Object.keys(made),
  held = 0,
): AccountEvidence {
  const tasksByKey: Record<string, number> = {};
  for (const key of Object.values(made)) tasksByKey[key] = (tasksByKey[key] ?? 0) + 1;
  return {
    name,
    cap: 4,
    tasksCreated: Object.keys(made).length,
    tasksByKey,
    asked,
    made: (id) => id in made,
    held,
    peakInFlight: 1,
    limited: 0,
    creates: Object.keys(made).length,
  };
}

const job = (id: string, attempts: [string, string | null][]) => ({
  id,
  idempotencyKey: `k-${id}`,
  attempts: attempts.map(([account, task_id]) => ({ account, task_id })),
});

describe("the pool's checks", () => {
  it("a clean pool: tasks over all accounts = jobs + recorded fallbacks, nothing foreign, nothing held", () => {
    const found = poolChecks(
      [
        job("j1", [["alpha", "alpha_t1"]]),
        job("j2", [
          ["alpha", "alpha_t2"],
          ["beta", "beta_t3"],
        ]),
      ],
      [
        account("alpha", { alpha_t1: "k-j1", alpha_t2: "k-j2" }),
        account("beta", { beta_t3: "k-j2" }),
      ],
    );
    expect(found).toEqual({
      duplicates: [],
      unrecorded: [],
      foreign: [],
      leaked: [],
      tally: { accounts: 2, tasks: 3, jobs: 2, fallbacks: 1 },
    });
  });

  it("a job with a task on each of two accounts and one attempt on record is a duplicate", () => {
    const found = poolChecks(
      [job("j1", [["beta", "beta_t2"]])],
      [account("alpha", { alpha_t1: "k-j1" }), account("beta", { beta_t2: "k-j1" })],
    );
    expect(found.duplicates.map((f) => f.jobId)).toEqual(["j1"]);
    expect(found.duplicates[0]?.why).toContain("2 tasks over the pool");
  });

  it("two tasks on one account are a duplicate even when a fallback allows two tasks over the pool", () => {
    const found = poolChecks(
      [
        job("j1", [
          ["alpha", "alpha_t1"],
          ["beta", "beta_t3"],
        ]),
      ],
      [account("alpha", { alpha_t1: "k-j1", alpha_t2: "k-j1" }), account("beta", {})],
    );
    expect(found.duplicates.map((f) => f.why)).toEqual([expect.stringContaining("on alpha")]);
  });

  it("a task made for a job that names none, and a task under no job's key, are unrecorded", () => {
    const found = poolChecks(
      [job("j1", [["alpha", null]])],
      [account("alpha", { alpha_t1: "k-j1", alpha_t9: "k-nobody" })],
    );
    expect(found.unrecorded.map((f) => f.jobId).sort()).toEqual(["alpha", "j1"]);
  });

  it("a task polled on an account that did not make it, or an attempt naming another account's task, is foreign", () => {
    const found = poolChecks(
      [job("j1", [["alpha", "beta_t2"]])],
      [
        account("alpha", { alpha_t1: "k-other" }, ["alpha_t1", "beta_t2"]),
        account("beta", { beta_t2: "k-j1" }),
      ],
    );
    expect(found.foreign.map((f) => f.jobId).sort()).toEqual(["beta_t2", "j1"]);
  });

  it("slots still held on an account are leaked, one finding a slot", () => {
    const found = poolChecks([], [account("alpha", {}, [], 2), account("beta", {})]);
    expect(found.leaked.map((f) => f.jobId)).toEqual(["alpha", "alpha"]);
  });
});
