/**
 * The pipeline's real parts on one machine: dynalite, s3rver, the simulator over HTTP, and a JSONL
 * event file. `runFlow` walks the state machine's diagram by calling the steps directly.
 */
import { join } from "node:path";
import { afterEach } from "vitest";
import { startSimulator, type Simulator, type SimulatorOptions } from "@reelay/simulator";
import { JsonlFileSink } from "../../../src/adapters/events/jsonl-events.ts";
import { createJob } from "../../../src/usecases/jobs/create-job.ts";
import { JobStore } from "../../../src/adapters/dynamodb/job-table.ts";
import type { Job } from "../../../src/domain/jobs/types.ts";
import type { PipelineDeps } from "../../../src/usecases/pipeline/pipeline-deps.ts";
import { UNWATCHED } from "../../support/unwatched.ts";
import type { FlowState } from "../../../src/domain/pipeline/flow-state.ts";
import { download } from "../../../src/usecases/pipeline/download-step.ts";
import { finish } from "../../../src/usecases/pipeline/finish-step.ts";
import { poll } from "../../../src/usecases/pipeline/poll-step.ts";
import { recordFailure } from "../../../src/usecases/pipeline/record-failure-step.ts";
import { submit } from "../../../src/usecases/pipeline/submit-step.ts";
import { ObjectStore } from "../../../src/adapters/s3/object-store.ts";
import { UpstreamClient } from "../../../src/adapters/upstream/upstream-client.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import { startLocalAws, type LocalAws } from "../../support/local-aws.ts";

export const UPSTREAM_KEY = "sk-upstream-secret-for-tests";

export interface Harness {
  aws: LocalAws;
  sim: Simulator;
  deps: PipelineDeps;
  events: JsonlFileSink;
  stop(): Promise<void>;
}

export async function startHarness(
  simOptions: SimulatorOptions = {},
  depOptions: Partial<PipelineDeps> = {},
): Promise<Harness> {
  const aws = await startLocalAws();
  // timeScale makes a 20 s generation take 100 ms, so a whole run stays well under a second of waiting.
  const sim = await startSimulator({ apiKey: UPSTREAM_KEY, timeScale: 0.005, ...simOptions });
  const events = new JsonlFileSink(join(aws.dir, "data", "events.jsonl"));
  const deps: PipelineDeps = {
    jobs: new JobStore(aws.ddb, aws.tableName),
    objects: new ObjectStore(aws.s3, aws.bucket),
    upstream: new UpstreamClient({
      baseUrl: sim.url,
      apiKey: UPSTREAM_KEY,
      sleep: async () => undefined,
      maxAttempts: 3,
    }),
    events,
    fetch: globalThis.fetch,
    now: () => new Date(),
    ...UNWATCHED,
    ...depOptions,
  };
  return {
    aws,
    sim,
    deps,
    events,
    async stop() {
      await sim.close();
      await aws.stop();
    },
  };
}

/** A `startHarness` whose harnesses stop by themselves after each test of the calling file. */
export function harnessPerTest(): (...args: Parameters<typeof startHarness>) => Promise<Harness> {
  const running: Harness[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((h) => h.stop()));
  });
  return async (...args) => {
    const h = await startHarness(...args);
    running.push(h);
    return h;
  };
}

export async function queuedJob(deps: PipelineDeps, body: unknown): Promise<Job> {
  const validation = validate(body);
  if (!validation.valid)
    throw new Error(`test request is invalid: ${JSON.stringify(validation.errors)}`);
  return (await createJob(deps.jobs, { validation, source: { type: "api" } })).job;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Submit's state through the Wait -> Poll loop until the outcome is not running or the bound is hit. */
export async function pollToEnd(
  deps: PipelineDeps,
  submitted: FlowState,
  waitMs = 20,
): Promise<FlowState> {
  let state = submitted;
  do {
    await pause(waitMs);
    state = await poll(deps, state);
  } while (state.outcome === "running" && state.polls < state.maxPolls);
  return state;
}

/** Submit -> (Wait -> Poll)* -> Download -> Finish, or RecordFailure, as the state machine runs them. */
export async function runFlow(
  deps: PipelineDeps,
  jobId: string,
): Promise<{ state: FlowState; status: string }> {
  let state = await pollToEnd(deps, await submit(deps, { jobId }));
  if (state.outcome === "succeeded") {
    state = await download(deps, state);
    return { state, status: (await finish(deps, state)).status };
  }
  return { state, status: (await recordFailure(deps, state)).status };
}
