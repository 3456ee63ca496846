/**
 * Step Functions ends a Standard execution that reaches 25,000 history events (Service quotas,
 * "Maximum execution history size": https://docs.aws.amazon.com/step-functions/latest/dg/service-quotas.html),
 * and a job whose execution dies that way is never recorded as failed. This computes, from the
 * synthesized definition and the real Submit and Poll steps (never hand-kept numbers), the most
 * events one execution can record, and checks it stays under the limit.
 *
 * Events per state, from the HistoryEvent types (https://docs.aws.amazon.com/step-functions/latest/apireference/API_HistoryEvent.html):
 * - Task (ours call a Lambda ARN directly): TaskStateEntered and TaskStateExited once per visit, and
 *   per attempt LambdaFunctionScheduled, LambdaFunctionStarted and one of LambdaFunctionSucceeded /
 *   Failed / TimedOut (ScheduleFailed and StartFailed replace two of those, never add). A visit makes
 *   at most 1 + the sum of its retriers' MaxAttempts attempts (each retrier counts its own).
 * - Wait, Choice, Pass, Succeed: <Type>StateEntered and <Type>StateExited. Fail: FailStateEntered.
 * - The execution: ExecutionStarted and one of ExecutionSucceeded / Failed / TimedOut / Aborted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@reelay/core/wiring";
import {
  ReelayError,
  type FlowState,
  jobDeadlineMs,
  MAX_DEADLINE_MS,
  MAX_JOB_TIMEOUT_S,
} from "@reelay/core/domain";
import { JOB_FLOW_TIMEOUT } from "@reelay/flow/job-flow";
import { STEP_LAMBDA_TIMEOUT_S } from "@reelay/flow/job-flow-names";
import { synthJobFlowDefinition } from "@reelay/flow/synth-definition";
import { poll, submit } from "@reelay/core/usecases";
import {
  queuedJob,
  startHarness,
  type Harness,
} from "../../packages/core/test/usecases/pipeline/harness.ts";

const HISTORY_LIMIT = 25_000;
/** ASL's default MaxAttempts for a retrier that names none. */
const DEFAULT_MAX_ATTEMPTS = 3;
const EVENTS_PER_ATTEMPT = 3;
const EVENTS_PER_VISIT: Record<string, number> = {
  Task: 2,
  Wait: 2,
  Choice: 2,
  Pass: 2,
  Succeed: 2,
  Fail: 1,
};
const EXECUTION_EVENTS = 2;

interface Rule {
  Next?: string;
  And?: Rule[];
  Variable?: string;
  NumericLessThanPath?: string;
}
interface State {
  Type: string;
  Next?: string;
  End?: boolean;
  Default?: string;
  Choices?: Rule[];
  Catch?: { Next: string }[];
  Retry?: { MaxAttempts?: number }[];
}
interface Definition {
  StartAt: string;
  States: Record<string, State>;
  TimeoutSeconds?: number;
}

function visitEvents(state: State): number {
  const base = EVENTS_PER_VISIT[state.Type];
  if (base === undefined)
    throw new Error(
      `No event count for a ${state.Type} state: extend EVENTS_PER_VISIT from the HistoryEvent types.`,
    );
  if (state.Type !== "Task") return base;
  const attempts =
    1 +
    (state.Retry ?? []).reduce(
      (sum, retrier) => sum + (retrier.MaxAttempts ?? DEFAULT_MAX_ATTEMPTS),
      0,
    );
  return base + EVENTS_PER_ATTEMPT * attempts;
}

/** Every way out of a state: [target, the Choice rule taken (if any)]. */
function exits(state: State): [string, Rule | undefined][] {
  return [
    ...(state.Next === undefined ? [] : [[state.Next, undefined] as [string, undefined]]),
    ...(state.Choices ?? []).map((rule): [string, Rule] => [rule.Next!, rule]),
    ...(state.Default === undefined ? [] : [[state.Default, undefined] as [string, undefined]]),
    ...(state.Catch ?? []).map((c): [string, undefined] => [c.Next, undefined]),
  ];
}

/** A Choice rule that goes back only while $.polls < $.maxPolls (alone or inside an And). */
function boundedByPolls(rule: Rule | undefined): boolean {
  const bound = (r: Rule) => r.Variable === "$.polls" && r.NumericLessThanPath === "$.maxPolls";
  return rule !== undefined && (bound(rule) || (rule.And ?? []).some(bound));
}

interface LoopShape {
  /** The states of the one loop, in order from where it is entered. */
  body: string[];
  /** Edges back into the loop (from -> to), each a Choice rule bounded by $.polls < $.maxPolls. */
  backEdges: string[];
  unbounded: string[];
}

/** Finds the back edges of a depth-first walk from StartAt: each closes a loop. */
function loopsOf(def: Definition): LoopShape {
  const shape: LoopShape = { body: [], backEdges: [], unbounded: [] };
  const stack: string[] = [];
  const done = new Set<string>();
  const walk = (name: string) => {
    stack.push(name);
    for (const [next, rule] of exits(def.States[name]!)) {
      const at = stack.indexOf(next);
      if (at >= 0) {
        (boundedByPolls(rule) ? shape.backEdges : shape.unbounded).push(`${name} -> ${next}`);
        shape.body = stack.slice(at);
      } else if (!done.has(next)) {
        walk(next);
      }
    }
    stack.pop();
    done.add(name);
  };
  walk(def.StartAt);
  return shape;
}

/**
 * The most events any run can record: the longest path through the definition with the loop's back
 * edge removed, where each state of the loop counts `iterations` times.
 */
function worstCaseEvents(
  def: Definition,
  loop: LoopShape,
  iterations: number,
): { events: number; path: string[] } {
  const back = new Set(loop.backEdges);
  const memo = new Map<string, { events: number; path: string[] }>();
  const longest = (name: string): { events: number; path: string[] } => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    const state = def.States[name]!;
    const own = visitEvents(state) * (loop.body.includes(name) ? iterations : 1);
    let best = { events: 0, path: [] as string[] };
    for (const [next] of exits(state)) {
      if (back.has(`${name} -> ${next}`)) continue;
      const tail = longest(next);
      if (tail.events > best.events) best = tail;
    }
    const result = { events: own + best.events, path: [name, ...best.path] };
    memo.set(name, result);
    return result;
  };
  const run = longest(def.StartAt);
  return { events: EXECUTION_EVENTS + run.events, path: run.path };
}

const definition = synthJobFlowDefinition() as unknown as Definition;
let h: Harness;
/** What the real Submit hands the loop for the longest deadline allowed. */
let submitted: FlowState;

beforeAll(async () => {
  // The longest deadline: REELAY_JOB_TIMEOUT_S at its largest (the formula's own maximum is no longer).
  h = await startHarness(
    { faults: [{ fault: "never_finish" }] },
    { jobTimeoutS: MAX_JOB_TIMEOUT_S },
  );
  const job = await queuedJob(h.deps, {
    model: "gamma-3.1",
    prompt: "a very long wait",
    duration_sec: 8,
  });
  submitted = await submit(h.deps, { jobId: job.id });
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

describe("Step Functions history limit", () => {
  it("the longest deadline is REELAY_JOB_TIMEOUT_S's largest allowed value, and config refuses a larger one", () => {
    expect(MAX_JOB_TIMEOUT_S * 1000).toBeGreaterThanOrEqual(MAX_DEADLINE_MS);
    expect(jobDeadlineMs({ durationSec: 1_000, queueing: true })).toBeLessThanOrEqual(
      MAX_JOB_TIMEOUT_S * 1000,
    );
    expect(jobDeadlineMs({ overrideS: MAX_JOB_TIMEOUT_S * 100 })).toBe(MAX_JOB_TIMEOUT_S * 1000);
    expect(loadConfig({ REELAY_JOB_TIMEOUT_S: String(MAX_JOB_TIMEOUT_S) }).jobTimeoutS).toBe(
      MAX_JOB_TIMEOUT_S,
    );
    expect(() => loadConfig({ REELAY_JOB_TIMEOUT_S: String(MAX_JOB_TIMEOUT_S + 1) })).toThrow(
      ReelayError,
    );
    expect(Date.parse(submitted.deadlineAt) - Date.now()).toBeLessThanOrEqual(
      MAX_JOB_TIMEOUT_S * 1000,
    );
  });

  it("the execution's own timeout leaves room after the longest deadline for a download and the last steps", () => {
    const afterDeadline =
      STEP_LAMBDA_TIMEOUT_S.poll + STEP_LAMBDA_TIMEOUT_S.download + STEP_LAMBDA_TIMEOUT_S.finish;
    expect(definition.TimeoutSeconds).toBe(JOB_FLOW_TIMEOUT.toSeconds());
    expect(definition.TimeoutSeconds!).toBeGreaterThan(
      STEP_LAMBDA_TIMEOUT_S.submit + MAX_JOB_TIMEOUT_S + afterDeadline,
    );
  });

  it("has exactly one loop, closed only by a Choice rule that requires $.polls < $.maxPolls", () => {
    const loop = loopsOf(definition);
    expect(loop.unbounded).toEqual([]);
    expect(loop.backEdges).toHaveLength(1);
    expect(loop.body.length).toBeGreaterThan(0);
  });

  it("each Poll of a task still running advances $.polls, also when the upstream fails the look, so the loop runs at most maxPolls times", async () => {
    expect(submitted.outcome).toBe("running");
    expect(submitted.polls).toBe(0);
    let state = submitted;
    for (let round = 0; round < 4; round += 1) {
      // The last rounds: the upstream answers every poll 503 (a look that learned nothing).
      if (round === 2) h.sim.setFaults([{ fault: "server_error", on: "poll" }]);
      const next = await poll(h.deps, state);
      expect(next.outcome).toBe("running");
      expect(next.polls).toBeGreaterThanOrEqual(state.polls + 1);
      expect(next.maxPolls).toBe(submitted.maxPolls);
      state = next;
    }
  });

  it("stays under 25,000 events in the worst case: the longest loop allowed, every Retry at its MaxAttempts", () => {
    const loop = loopsOf(definition);
    const iterations = submitted.maxPolls - submitted.polls;
    const worst = worstCaseEvents(definition, loop, iterations);
    const perRound = loop.body.reduce(
      (sum, name) => sum + visitEvents(definition.States[name]!),
      0,
    );
    const margin = HISTORY_LIMIT - worst.events;
    console.log(
      `history-limit: worst case ${worst.events} events (${iterations} rounds of ${loop.body.join(" -> ")} at ${perRound} events each, ` +
        `deadline ${MAX_JOB_TIMEOUT_S} s; path ${[...new Set(worst.path)].join(" -> ")}); limit ${HISTORY_LIMIT}, margin ${margin} (${Math.round((100 * margin) / HISTORY_LIMIT)} %)`,
    );
    expect(worst.events).toBeLessThan(HISTORY_LIMIT);
  });
});
