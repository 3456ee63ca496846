/** The soak's own parts without a stack: the fault mix, the deal of per-job faults, and the verdict's checks. */
import { describe, expect, it } from "vitest";
import {
  dealJobFaults,
  DEFAULT_MIX,
  MixError,
  NO_FAULTS,
  parseMix,
  seededRandom,
  serverRules,
} from "../../soak/faults.ts";
import { planJobs } from "../../soak/plan.ts";
import {
  percentile,
  clean,
  summaryLine,
  verify,
  type Evidence,
  type SubmittedJob,
} from "../../soak/verify.ts";

describe("the fault mix", () => {
  it("defaults to the issue's mix, takes name=p pairs over it, and 'none'", () => {
    expect(parseMix(undefined)).toEqual(DEFAULT_MIX);
    expect(parseMix("none")).toEqual(NO_FAULTS);
    expect(parseMix("rate_limit=0.3, truncate=0")).toEqual({
      ...DEFAULT_MIX,
      rate_limit: 0.3,
      truncate: 0,
    });
  });

  it.each(["bogus=0.1", "rate_limit=2", "rate_limit=", "task_fail=0.6,never_finish=0.6"])(
    "refuses %s with a message naming the problem",
    (text) => {
      expect(() => parseMix(text)).toThrow(MixError);
    },
  );

  it("makes server rules for the transient faults only, half the 5xx and resets landing after the task is made", () => {
    const rules = serverRules(DEFAULT_MIX);
    expect(rules.map((r) => r.fault).sort()).toEqual([
      "rate_limit",
      "reset",
      "reset",
      "server_error",
      "server_error",
      "slow",
    ]);
    expect(
      rules
        .filter((r) => r.after === true)
        .map((r) => r.fault)
        .sort(),
    ).toEqual(["reset", "server_error"]);
    expect(rules.find((r) => r.fault === "rate_limit")?.retryAfterS).toBeGreaterThan(0);
    expect(serverRules(NO_FAULTS)).toEqual([]);
  });

  it("deals per-job faults in exact counts (at least one when asked for), never a download fault to a failing job", () => {
    const deal = dealJobFaults(DEFAULT_MIX, 300, seededRandom(1));
    const count = (f: string) => deal.filter((x) => x === f).length;
    expect([
      count("task_fail"),
      count("never_finish"),
      count("download_error"),
      count("truncate"),
    ]).toEqual([15, 6, 9, 6]);
    const small = dealJobFaults(DEFAULT_MIX, 3, seededRandom(1));
    expect(small.filter((x) => x !== undefined)).toHaveLength(3);
    expect(new Set(small)).toEqual(new Set(["task_fail", "never_finish", "download_error"]));
  });

  it("plans jobs whose prompts carry their fault as a directive and whose expected ending follows from it", () => {
    const jobs = planJobs({
      jobs: 40,
      mix: DEFAULT_MIX,
      random: seededRandom(3),
      runId: "r",
      generationMs: [1000, 2000],
      outputBytes: [10_000, 20_000],
    });
    for (const job of jobs) {
      const prompt = JSON.stringify(job.body);
      if (job.fault !== undefined) expect(prompt).toContain(`[[sim:${job.fault}`);
      expect(job.expect).toBe(
        job.fault === "task_fail"
          ? "upstream_task_failed"
          : job.fault === "never_finish"
            ? "timeout"
            : "succeeded",
      );
    }
    expect(new Set(jobs.map((j) => j.endpoint))).toEqual(
      new Set(["/v1/video/generations", "/v1/chat/completions"]),
    );
    expect(new Set(jobs.map((j) => j.key)).size).toBe(40);
  });
});

const SHA = "a".repeat(64);

function job(i: number, over: Partial<SubmittedJob> = {}): SubmittedJob {
  return {
    index: i,
    key: `k${i}`,
    endpoint: "/v1/video/generations",
    body: {},
    fault: undefined,
    expect: "succeeded",
    jobId: `vidtsk_${i}`,
    ...over,
  };
}

function record(i: number, over: Record<string, unknown> = {}) {
  return {
    id: `vidtsk_${i}`,
    kind: "video",
    status: "succeeded",
    idempotencyKey: `vidtsk_${i}`,
    upstreamTaskId: `up_${i}`,
    outputs: [
      { bucket: "b", key: `outputs/vidtsk_${i}/video.mp4`, sha256: SHA, url: `http://s3/${i}` },
    ],
    error: null,
    timings: { totalMs: 1000 * i, deadlineAt: null },
    ...over,
  };
}

function evidence(jobs: SubmittedJob[], records: any[], over: Partial<Evidence> = {}): Evidence {
  return {
    jobs,
    records: new Map(records.map((r) => [r.id, r])),
    listed: records,
    events: records
      .filter((r) => ["succeeded", "failed"].includes(r.status))
      .map((r) => ({
        "detail-type": "x",
        detail: {
          jobId: r.id,
          status: r.status,
          outputs: r.outputs.map((o: any) => ({ sha256: o.sha256 })),
        },
      })),
    tasksByKey: Object.fromEntries(records.map((r) => [r.idempotencyKey, 1])),
    served: () => [{ sha256: SHA, bytes: 10 }],
    stored: async () => ({ sha256: SHA, bytes: 10 }),
    ...over,
  };
}

describe("the verdict", () => {
  it("a clean run: every count zero, failures by code, the line in the issue's format", async () => {
    const jobs = [job(1), job(2), job(3, { fault: "task_fail", expect: "upstream_task_failed" })];
    const records = [
      record(1),
      record(2),
      record(3, {
        status: "failed",
        outputs: [],
        error: { code: "upstream_task_failed", message: "no" },
      }),
    ];
    const v = await verify(evidence(jobs, records));
    expect(summaryLine(v)).toBe(
      "soak: 3 jobs, 2 succeeded, 1 failed {upstream_task_failed: 1}, 0 lost, 0 duplicate upstream tasks, 0 corrupt outputs, 0 stuck, 0 slots leaked, 0 batches (0 miscounted)",
    );
    expect(v.unexpected).toEqual([]);
  });

  it("a batch whose counts, or whose Batch Completed event, differ from a recount of its jobs' records is miscounted; one that agrees is not", async () => {
    const jobs = [
      job(1, { batchId: "bat_A" }),
      job(2, { batchId: "bat_A" }),
      job(3, { batchId: "bat_B" }),
    ];
    const records = [record(1), record(2), record(3)];
    const agree = { succeeded: 2, rejected: 0 };
    const v = await verify(
      evidence(jobs, records, {
        batches: [
          { id: "bat_A", total: 2, counts: agree, completed: [{ counts: agree }] },
          // One line rejected, one job: the API's counts are right, the event says otherwise.
          {
            id: "bat_B",
            total: 2,
            counts: { succeeded: 1, rejected: 1 },
            completed: [{ counts: { succeeded: 2 } }],
          },
        ],
      }),
    );
    expect(v.batches).toBe(2);
    expect(v.miscounted.map((f) => f.jobId)).toEqual(["bat_B"]);
    expect(v.miscounted[0]!.why).toMatch(/Batch Completed event says/);
    const off = await verify(
      evidence(jobs, records, {
        batches: [{ id: "bat_A", total: 2, counts: { succeeded: 1, running: 1 }, completed: [] }],
      }),
    );
    expect(off.miscounted[0]!.why).toMatch(/a recount of its jobs/);
  });

  it("GET /v1/usage's totals are checked against a recount of the records and its groups against its totals; any difference is reported and the run is not clean", async () => {
    const jobs = [job(1), job(2), job(3, { fault: "task_fail", expect: "upstream_task_failed" })];
    const priced = { usage: { unit: "video_second", quantity: 4 }, charged: true, cost: 0.1 };
    const records = [
      record(1, priced),
      record(2, { ...priced, usage: { unit: "image", quantity: 2 }, cost: null }),
      record(3, {
        ...priced,
        status: "failed",
        outputs: [],
        charged: "unknown",
        error: { code: "upstream_task_failed", message: "no", class: "upstream_failed" },
      }),
    ];
    const totals = {
      jobs: 3,
      succeeded: 2,
      failed: 1,
      cancelled: 0,
      in_progress: 0,
      units: { video_seconds: 8, images: 2 },
      cost: 0.2,
      unpriced: 1,
      failures: { upstream_failed: 1 },
      charged_failures: 1,
    };
    const agree = await verify(evidence(jobs, records, { usage: { totals, groups: [totals] } }));
    expect(agree.usage).toEqual([]);
    expect(summaryLine(agree)).toMatch(/\(0 miscounted\), usage = recount$/);
    expect(clean(agree)).toBe(true);
    const off = await verify(
      evidence(jobs, records, {
        usage: { totals: { ...totals, cost: 0.21 }, groups: [{ ...totals, jobs: 2 }] },
      }),
    );
    expect(off.usage!.map((f) => f.why)).toEqual([
      "totals cost: the report says 210000, a recount 200000",
      "groups jobs: the report says 2, a recount 3",
      "groups cost: the report says 200000, a recount 210000",
    ]);
    expect(summaryLine(off)).toMatch(/usage differs from a recount \(3\)$/);
    expect(clean(off)).toBe(false);
  });

  it("counts a job with no event, two events, no record, or no acknowledgement as lost", async () => {
    const jobs = [job(1), job(2), job(3), job(4, { jobId: undefined })];
    const base = evidence(jobs, [record(1), record(2)]);
    const twice = base.events.filter((e) => e.detail.jobId === "vidtsk_2");
    const v = await verify({
      ...base,
      events: [...base.events.filter((e) => e.detail.jobId !== "vidtsk_1"), ...twice],
    });
    expect(v.lost.map((f) => f.jobId).sort()).toEqual(["k4", "vidtsk_1", "vidtsk_2", "vidtsk_3"]);
  });

  it("counts two upstream tasks for one key as a duplicate, and a listed job made by no submission as a stray", async () => {
    const v = await verify(
      evidence([job(1)], [record(1)], {
        tasksByKey: { vidtsk_1: 2 },
        listed: [record(1), record(9)],
      }),
    );
    expect(v.duplicates.map((f) => f.jobId)).toEqual(["vidtsk_1"]);
    expect(v.strays.map((f) => f.jobId)).toEqual(["vidtsk_9"]);
  });

  it("reports a job the listing shows twice, or ended with another status than its record (a job still moving is only stuck)", async () => {
    const moving = record(3, { status: "downloading" });
    const v = await verify(
      evidence([job(1), job(2), job(3)], [record(1), record(2), moving], {
        listed: [
          record(1),
          record(1, { status: "queued" }),
          record(2, { status: "running" }),
          { ...moving, status: "succeeded" },
        ],
      }),
    );
    expect(v.listing.map((f) => f.jobId)).toEqual(["vidtsk_1", "vidtsk_2"]);
    expect(v.stuck.map((f) => f.jobId)).toEqual(["vidtsk_3"]);
  });

  it("counts stored bytes that differ from what was served, or a record's wrong sha256, as corrupt", async () => {
    const bytes = await verify(
      evidence([job(1)], [record(1)], {
        stored: async () => ({ sha256: "b".repeat(64), bytes: 10 }),
      }),
    );
    expect(bytes.corrupt).toHaveLength(1);
    const recorded = await verify(
      evidence(
        [job(1)],
        [record(1, { outputs: [{ key: "k", sha256: "c".repeat(64), url: "u" }] })],
      ),
    );
    expect(recorded.corrupt[0]?.why).toContain("record");
    const missing = await verify(
      evidence([job(1)], [record(1)], {
        stored: async () => Promise.reject(new Error("NoSuchKey")),
      }),
    );
    expect(missing.corrupt[0]?.why).toContain("NoSuchKey");
  });

  it("counts a job not terminal as stuck, and a transient-only job that failed as unexpected", async () => {
    const v = await verify(
      evidence(
        [job(1), job(2)],
        [
          record(1, { status: "running" }),
          record(2, {
            status: "failed",
            outputs: [],
            error: { code: "upstream_rejected", message: "x" },
          }),
        ],
      ),
    );
    expect(v.stuck.map((f) => f.jobId)).toEqual(["vidtsk_1"]);
    expect(v.unexpected.map((f) => f.jobId)).toEqual(["vidtsk_2"]);
    expect(summaryLine(v)).toContain("1 failed {upstream_rejected: 1}");
  });

  it("percentile picks the nearest rank", () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([], 50)).toBeUndefined();
  });
});
