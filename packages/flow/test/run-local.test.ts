/**
 * The job flow's real ASL run by the real interpreter (aws-local-stepfunctions). The handlers are
 * fakes in this process: they stand in for the Lambdas so each branch can be forced; Wait, Choice,
 * Retry, Catch and the loop bound are the definition's own.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { ReelayError, TransientError } from "@reelay/core/domain";
import { synthJobFlowDefinition } from "../src/synth-definition.ts";
import {
  ExecutionError,
  runJobFlowLocally,
  stateMachineFor,
  type LocalTaskHandler,
} from "../src/run-local.ts";

const definition = synthJobFlowDefinition();

interface Flow {
  jobId: string;
  kind: "video" | "image";
  waitSeconds: number;
  polls: number;
  maxPolls: number;
  deadlineAt: string;
  outcome: "running" | "succeeded" | "failed";
  error?: unknown;
}

function flowState(jobId: string, over: Partial<Flow> = {}): Flow {
  return {
    jobId,
    kind: "video",
    waitSeconds: 2,
    polls: 0,
    maxPolls: 5,
    deadlineAt: "2030-01-01T00:00:00Z",
    outcome: "running",
    ...over,
  };
}

/** Fakes that record the states visited; `poll` decides the outcome of each poll. */
function fakes(
  poll: (state: Flow) => Flow | Promise<Flow>,
  over: Record<string, LocalTaskHandler> = {},
) {
  const visited: string[] = [];
  const failures: unknown[] = [];
  const handlers: Record<string, LocalTaskHandler> = {
    Submit: async (input: { jobId: string }) => flowState(input.jobId),
    Poll: async (state: Flow) => poll({ ...state, polls: state.polls + 1 }),
    Download: async (state: Flow) => state,
    Finish: async (state: Flow) => ({ jobId: state.jobId, status: "succeeded" }),
    RecordFailure: async (state: Flow) => {
      failures.push(state.error);
      return { jobId: state.jobId, status: "failed" };
    },
    ...over,
  };
  const traced = Object.fromEntries(
    Object.entries(handlers).map(([name, fn]) => [
      name,
      async (input: unknown) => {
        visited.push(name);
        return fn(input);
      },
    ]),
  );
  return { handlers: traced, visited, failures };
}

function run(handlers: Record<string, LocalTaskHandler>, jobId = "vidtsk_test") {
  // 2 s waits and 10 s retry intervals become 2 ms and 10 ms.
  return runJobFlowLocally({
    definition,
    handlers,
    input: { jobId },
    executionName: jobId,
    waitScale: 0.001,
  });
}

describe("runJobFlowLocally on the synthesized job flow", () => {
  it("executions that ended, succeeded or failed, leave no listener on a signal that outlives them (the local stack's lives as long as it runs)", async () => {
    const outlives = new AbortController();
    const ok = fakes((s) => ({ ...s, outcome: "succeeded" }));
    const bad = fakes((s) => ({ ...s, outcome: "failed", error: { code: "x", message: "y" } }));
    const runs = Array.from({ length: 40 }, (_, i) =>
      runJobFlowLocally({
        definition,
        handlers: (i % 2 === 0 ? ok : bad).handlers,
        input: { jobId: `vidtsk_${i}` },
        executionName: `vidtsk_${i}`,
        waitScale: 0.001,
        signal: outlives.signal,
      }).catch(() => undefined),
    );
    expect(getEventListeners(outlives.signal, "abort").length).toBe(40);
    await Promise.all(runs);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(getEventListeners(outlives.signal, "abort")).toEqual([]);
  });

  it("succeeded path: polls until succeeded, then Download (a video's previews inside it) and Finish, ending with Finish's answer", async () => {
    const f = fakes((s) => ({ ...s, outcome: s.polls >= 3 ? "succeeded" : "running" }));
    const result = await run(f.handlers);
    expect(result).toEqual({ jobId: "vidtsk_test", status: "succeeded" });
    expect(f.visited).toEqual(["Submit", "Poll", "Poll", "Poll", "Download", "Finish"]);
  });

  it("failed outcome goes to RecordFailure with the poll's error, and the execution fails", async () => {
    const error = { code: "upstream_failed", message: "content policy" };
    const f = fakes((s) => ({ ...s, outcome: "failed", error }));
    await expect(run(f.handlers)).rejects.toBeInstanceOf(ExecutionError);
    expect(f.visited).toEqual(["Submit", "Poll", "RecordFailure"]);
    expect(f.failures).toEqual([error]);
  });

  it("a ReelayTransientError thrown twice is retried by the Retry rule and the job then succeeds", async () => {
    let calls = 0;
    const f = fakes((s) => ({ ...s, outcome: "succeeded" }), {
      Download: async (s: Flow) => {
        calls += 1;
        if (calls <= 2) throw new TransientError("upstream_unavailable", "upstream 503");
        return s;
      },
    });
    await expect(run(f.handlers)).resolves.toEqual({ jobId: "vidtsk_test", status: "succeeded" });
    expect(calls).toBe(3);
    expect(f.visited).not.toContain("RecordFailure");
  });

  it("a permanent ReelayError is not retried: Catch sends it to RecordFailure as {Error, Cause}", async () => {
    let calls = 0;
    const f = fakes((s) => s, {
      Submit: async () => {
        calls += 1;
        throw new ReelayError("upstream_rejected", "model not available");
      },
    });
    await expect(run(f.handlers)).rejects.toBeInstanceOf(ExecutionError);
    expect(calls).toBe(1);
    expect(f.visited).toEqual(["Submit", "RecordFailure"]);
    expect(f.failures).toEqual([expect.objectContaining({ Error: "ReelayError" })]);
  });

  it("the loop bound stops a task that is running forever after maxPolls polls, as a timeout", async () => {
    const f = fakes((s) => ({ ...s, outcome: "running" }));
    await expect(run(f.handlers)).rejects.toBeInstanceOf(ExecutionError);
    expect(f.visited.filter((name) => name === "Poll")).toHaveLength(5);
    expect(f.visited.at(-1)).toBe("RecordFailure");
    expect(f.failures).toEqual([expect.objectContaining({ code: "timeout" })]);
  });

  it("refuses a definition whose Task has no local handler", async () => {
    const { Poll: _poll, ...rest } = fakes((s) => s).handlers;
    await expect(run(rest)).rejects.toThrow(/Poll/);
  });

  it("builds one interpreter per definition (validated once, not per job or per stack) and still refuses an invalid definition", () => {
    expect(stateMachineFor(definition)).toBe(stateMachineFor(definition));
    expect(stateMachineFor(structuredClone(definition))).toBe(stateMachineFor(definition));
    expect(() => stateMachineFor({ StartAt: "Nowhere", States: {} })).toThrow(/invalid/);
  });

  it("leaves the definition it runs as it was (the interpreter fills in defaults on its own copy)", async () => {
    const before = JSON.stringify(definition);
    await run(fakes((s) => ({ ...s, outcome: "succeeded" })).handlers);
    expect(JSON.stringify(definition)).toBe(before);
  });

  it("executions sharing the interpreter keep their own state: one succeeds while another fails", async () => {
    const ok = fakes((s) => ({ ...s, outcome: s.polls >= 2 ? "succeeded" : "running" }));
    const bad = fakes((s) => ({
      ...s,
      outcome: "failed",
      error: { code: "upstream_task_failed", message: "no" },
    }));
    const [first, second] = await Promise.allSettled([
      run(ok.handlers, "vidtsk_one"),
      run(bad.handlers, "vidtsk_two"),
    ]);
    expect(first).toEqual({
      status: "fulfilled",
      value: { jobId: "vidtsk_one", status: "succeeded" },
    });
    expect(second.status).toBe("rejected");
    expect(ok.visited).toEqual(["Submit", "Poll", "Poll", "Download", "Finish"]);
    expect(bad.visited).toEqual(["Submit", "Poll", "RecordFailure"]);
  });

  it("an image job and a video job take the same states: Download (which makes a video's previews) straight to Finish", async () => {
    for (const kind of ["image", "video"] as const) {
      const f = fakes((s) => ({ ...s, outcome: "succeeded" }), {
        Submit: async (input: { jobId: string }) => flowState(input.jobId, { kind }),
      });
      expect(await run(f.handlers, `${kind}_test`)).toEqual({
        jobId: `${kind}_test`,
        status: "succeeded",
      });
      expect(f.visited, kind).toEqual(["Submit", "Poll", "Download", "Finish"]);
    }
  });

  it("onEvent sees every state entered, in order, and a retry, before the execution's promise settles", async () => {
    let calls = 0;
    const f = fakes((s) => ({ ...s, outcome: s.polls >= 2 ? "succeeded" : "running" }), {
      Download: async (state: Flow) => {
        calls += 1;
        if (calls === 1) throw new TransientError("download_failed", "reset");
        return state;
      },
    });
    const events: { type: string; state?: { name: string } }[] = [];
    await runJobFlowLocally({
      definition,
      handlers: f.handlers,
      input: { jobId: "vidtsk_ev" },
      executionName: "vidtsk_ev",
      waitScale: 0.001,
      onEvent: (e) => events.push(e as never),
    });
    expect(events.filter((e) => e.type === "StateEntered").map((e) => e.state!.name)).toEqual([
      "Submit",
      "WaitForTask",
      "Poll",
      "IsDone",
      "WaitForTask",
      "Poll",
      "IsDone",
      "Download",
      "Finish",
    ]);
    expect(events.filter((e) => e.type === "StateRetried").map((e) => e.state!.name)).toEqual([
      "Download",
    ]);
    expect(events.at(-1)!.type).toBe("ExecutionSucceeded");
  });
});
