/**
 * Acceptance: jobs that cannot succeed end `failed`, with the reason, and exactly one
 * Generation Failed event: an upstream task that fails, and a job that runs past its deadline.
 *
 * Deadlines: every job is terminal by its deadline plus a small slack, whatever the upstream does
 * (a task that never finishes, polls answered 503, rate limited with a long Retry-After, or left
 * hanging). The slack: a look past the deadline may take up to LAST_LOOK_MS (the upstream client
 * then stops retrying, sleeping and waiting), plus the Wait rounded up to whole seconds and the
 * steps' own time (RecordFailure and the writes) on this machine, STEP_TIME_MS.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { LAST_LOOK_MS } from "@reelay/core/domain";
import {
  eventsFor,
  createVideoJob,
  startTestStack,
  waitForTerminalJob,
  type TestStack,
  STACK_START_MS,
} from "./support/stack.ts";

const JOB_TIMEOUT_S = 4;
/** Wait rounding (1 s) and the steps' own work on one machine, generously. */
const STEP_TIME_MS = 3_000;
const SLACK_MS = LAST_LOOK_MS + STEP_TIME_MS;
let stack: TestStack;

beforeAll(async () => {
  // Real-time pauses: a deadline is counted on the real clock, and a compressed poll cadence would
  // reach the poll limit long before it.
  stack = await startTestStack(
    { REELAY_JOB_TIMEOUT_S: String(JOB_TIMEOUT_S) },
    {},
    { waitScale: 1 },
  );
}, STACK_START_MS);
afterAll(async () => {
  await stack?.dispose();
});

function create(prompt: string): Promise<string> {
  return createVideoJob(stack, { model: "gamma-3.1", prompt, duration_sec: 4 });
}

// Each test waits out its own job's deadline on one stack: side by side, they wait once.
describe.concurrent("failed jobs on the local stack", () => {
  it("an upstream task that fails ends the job failed with the upstream's reason and one Generation Failed event", async ({
    expect,
  }) => {
    const id = await create(
      'a glass city [[sim:task_fail reason="blocked by the content policy"]]',
    );
    const job = await waitForTerminalJob(stack.url, stack.apiKey, id);
    expect(job.status).toBe("failed");
    expect(job.error).toEqual({
      code: "upstream_task_failed",
      message: expect.stringContaining("blocked by the content policy"),
      // The upstream's words name a content-policy refusal: sending it again unchanged cannot help.
      class: "content_policy",
      retryable: false,
    });
    const events = await eventsFor(stack.dataDir, id);
    expect(events.map((event) => event["detail-type"])).toEqual(["Generation Failed"]);
    expect(events[0]?.detail.error).toEqual(job.error);
  });

  it("a task that never finishes ends the job failed with error.code timeout after REELAY_JOB_TIMEOUT_S, one Generation Failed event", async ({
    expect,
  }) => {
    const id = await create("a clock with no hands [[sim:never_finish]]");
    const job = await waitForTerminalJob(stack.url, stack.apiKey, id);
    expect(lateness(job)).toBeLessThanOrEqual(SLACK_MS);
    expect(job.status).toBe("failed");
    expect(job.error?.code).toBe("timeout");
    // The deadline is the override, counted from submission, not the 5-15 min formula.
    expect(Date.parse(job.timings.deadlineAt) - Date.parse(job.timings.submittedAt)).toBe(
      JOB_TIMEOUT_S * 1000,
    );
    expect(stack.simulator?.counters().tasksByKey[id]).toBe(1);
    expect((await eventsFor(stack.dataDir, id)).map((event) => event["detail-type"])).toEqual([
      "Generation Failed",
    ]);
  });

  it.for<[string, string]>([
    ["polls that keep answering 503", "[[sim:server_error]]"],
    ["polls rate limited with Retry-After: 30", "[[sim:rate_limit retry_after=30]]"],
    ["polls that hang for a minute", "[[sim:slow delay_ms=60000]]"],
  ])(
    "a task never finishing, %s: failed with code timeout no later than its deadline plus the slack, one Generation Failed event",
    { timeout: JOB_TIMEOUT_S * 1000 + SLACK_MS + 30_000 },
    async ([name, directive], { expect }) => {
      const id = await create(`a clock with no hands [[sim:never_finish]] ${directive}`);
      // No longer than the deadline plus the slack plus a margin: a late job fails the test instead of hanging it.
      const job = await waitForTerminalJob(
        stack.url,
        stack.apiKey,
        id,
        JOB_TIMEOUT_S * 1000 + SLACK_MS + 20_000,
      );
      console.log(
        `deadlines: ${name}: terminal ${lateness(job)} ms after the deadline (slack ${SLACK_MS} ms)`,
      );
      expect(job.status).toBe("failed");
      expect(job.error?.code).toBe("timeout");
      expect(Date.parse(job.timings.deadlineAt) - Date.parse(job.timings.submittedAt)).toBe(
        JOB_TIMEOUT_S * 1000,
      );
      expect(lateness(job)).toBeLessThanOrEqual(SLACK_MS);
      expect((await eventsFor(stack.dataDir, id)).map((event) => event["detail-type"])).toEqual([
        "Generation Failed",
      ]);
    },
  );
});

function lateness(job: any): number {
  return Date.parse(job.timings.finishedAt) - Date.parse(job.timings.deadlineAt);
}
