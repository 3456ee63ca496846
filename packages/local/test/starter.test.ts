/**
 * The starter on the real synthesized ASL. The handlers here only count visits: what is under test
 * is that a job runs at most once at a time in this process, and that stop() ends every execution.
 */
import { describe, expect, it } from "vitest";
import { synthJobFlowDefinition } from "@reelay/flow/synth-definition";
import { silentLogger } from "../src/log.ts";
import { LocalJobStarter } from "../src/starter.ts";

const definition = synthJobFlowDefinition();

function counting(pollOutcome: () => "running" | "succeeded") {
  const visits: Record<string, number> = {};
  const visit = (name: string) => (visits[name] = (visits[name] ?? 0) + 1);
  const state = (jobId: string) => ({
    jobId,
    kind: "video",
    waitSeconds: 1,
    polls: 0,
    maxPolls: 1000,
    deadlineAt: "2100-01-01T00:00:00Z",
    outcome: "running",
  });
  const handlers = {
    Submit: async (input: { jobId: string }) => {
      visit("Submit");
      return state(input.jobId);
    },
    Poll: async (input: { jobId: string }) => {
      visit("Poll");
      return { ...state(input.jobId), outcome: pollOutcome() };
    },
    Download: async (input: object) => {
      visit("Download");
      return input;
    },
    Finish: async (input: { jobId: string }) => {
      visit("Finish");
      return { jobId: input.jobId, status: "succeeded" };
    },
    RecordFailure: async (input: { jobId: string }) => {
      visit("RecordFailure");
      return { jobId: input.jobId, status: "failed" };
    },
  };
  return { visits, handlers };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}

describe("LocalJobStarter", () => {
  it("starting a job that is running here already starts nothing; a terminal job is not started", async () => {
    let done = false;
    const { visits, handlers } = counting(() => (done ? "succeeded" : "running"));
    const starter = new LocalJobStarter({
      definition,
      handlers,
      log: silentLogger,
      waitScale: 0.001,
    });
    await Promise.all([
      starter.start({ id: "vidtsk_a", status: "queued" }),
      starter.start({ id: "vidtsk_a", status: "queued" }),
    ]);
    await starter.start({ id: "vidtsk_b", status: "succeeded" });
    expect(starter.running).toEqual(["vidtsk_a"]);
    done = true;
    await until(() => starter.running.length === 0);
    expect(visits).toMatchObject({ Submit: 1, Download: 1, Finish: 1 });
  });

  it("stop() ends every running execution before it resolves, and later starts do nothing", async () => {
    const { visits, handlers } = counting(() => "running");
    const starter = new LocalJobStarter({
      definition,
      handlers,
      log: silentLogger,
      waitScale: 0.001,
    });
    await starter.start({ id: "vidtsk_c", status: "running" });
    await until(() => (visits.Poll ?? 0) > 0);
    await starter.stop();
    expect(starter.running).toEqual([]);
    await starter.start({ id: "vidtsk_d", status: "queued" });
    expect(starter.running).toEqual([]);
    expect(visits.RecordFailure).toBeUndefined();
  });
});
