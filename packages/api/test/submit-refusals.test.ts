/**
 * One table of refusals through every door a job comes in by (the API, a batch, a drop, a retry),
 * all of which go through core's one submitJob: the same refusal gets the same code whichever door,
 * and leaves nothing reserved. Real parts: dynalite (jobs, admission, budgets, batches), s3rver
 * (drops), the API app in-process, the dispatcher and the sweep on a virtual clock. Stand-ins:
 * the executions the dispatcher starts are recorded, not run (the flow has its own tests), and
 * events are recorded in memory.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AdmissionStore,
  BatchStore,
  BudgetLedger,
  JobStore,
  ObjectStore,
} from "@reelay/core/adapters";
import { type Budget, type Job, DEPLOYMENT_OWNER, ledgerOf } from "@reelay/core/domain";
import {
  AdmissionControl,
  BatchTracker,
  createJob,
  dispatch,
  type DropDeps,
  ingestDrop,
  type ExecutionStarter,
  type JobQueue,
  noMetrics,
  type SubmitDeps,
  sweep,
} from "@reelay/core/usecases";
import { validate } from "@reelay/core/domain";
import { createApp } from "../src/index.ts";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { json, RecordingSink, testApiDeps } from "./support/harness.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

const QUEUE_TIMEOUT_S = 60;
/** os-2 at 4 s: 4 units against a deployment budget in units. */
const GOOD = { model: "os-2", prompt: "a paper crane", duration_sec: 4 };
const BAD = { ...GOOD, duration_sec: 7 };
let worlds = 0;

async function world(budget: Budget) {
  const n = ++worlds;
  const table = `refusals-${process.pid}-${n}`;
  await aws.createTable(table);
  const clock = { at: Date.parse("2026-11-27T10:00:00Z") };
  const now = () => new Date(clock.at);
  const jobs = new JobStore(aws.ddb, table, { now });
  const objects = new ObjectStore(aws.s3, aws.bucket);
  const batchStore = new BatchStore(aws.ddb, table);
  const events = new RecordingSink();
  const budgets = new BudgetLedger(aws.ddb, table, { deployment: budget });
  const waker = { wake: async () => undefined };
  const admission = new AdmissionControl({
    store: new AdmissionStore(aws.ddb, table),
    jobs,
    settings: { concurrency: 1, queueTimeoutS: QUEUE_TIMEOUT_S },
    waker,
    now,
  });
  const batches = new BatchTracker({ batches: batchStore, now, waker });
  const queue: JobQueue = { start: (job) => admission.enqueue(job) };
  // The parts the refusals go through are this world's own; the helper adds the rest over the table.
  const { deps } = testApiDeps(
    aws,
    { tableName: table, events, now },
    {
      jobs,
      objects,
      starter: queue,
      events,
      budgets,
      admission,
      batches: batchStore,
      batchTracker: batches,
      metrics: noMetrics,
      now,
    },
  );
  const app = createApp(deps);
  const submit: SubmitDeps = {
    jobs,
    budgets,
    events,
    now,
    starter: queue,
    batches,
    metrics: noMetrics,
  };
  const drops: DropDeps = {
    objects,
    submit,
    defaultModel: "os-2",
    batches: { batches: batchStore, admission, now },
  };
  const executions: ExecutionStarter = { start: async () => undefined };
  const admissionDeps = {
    admission,
    jobs,
    starter: executions,
    now,
    budgets,
    events,
    batches,
    metrics: noMetrics,
  };
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await app.request(path, {
      method,
      headers: json,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, text, body: text.startsWith("{") ? JSON.parse(text) : null };
  };
  return {
    n,
    jobs,
    objects,
    drops,
    call,
    /** The dispatcher's run: a queued job reserves at admission, or ends budget_exceeded. */
    dispatch: () => dispatch(admissionDeps),
    /** Past the queue limit, then the sweep: every job still waiting ends queue_timeout. */
    expire: async () => {
      clock.at += (QUEUE_TIMEOUT_S + 1) * 1000;
      await sweep(admissionDeps);
    },
    /** What the deployment's ledger holds now: settled spend plus open reservations, in units. */
    held: async () => (await budgets.used(ledgerOf(DEPLOYMENT_OWNER, budget, now()))) / 1e6,
    /** Every job recorded. */
    all: async () => (await jobs.list({ limit: 100 })).jobs as Job[],
  };
}

type World = Awaited<ReturnType<typeof world>>;

/** What a door answered: a refusal at once (code, the request's issue paths), or the job it made. */
interface Answer {
  refused?: { code: string; issues: string[] };
  jobId?: string;
}

const issuePaths = (errors: { path: string; code: string }[] | undefined) =>
  (errors ?? []).map((issue) => `${issue.path}: ${issue.code}`);

function fromHttp(answer: { status: number; body: any }, id: (body: any) => string): Answer {
  if (answer.status === 200) return { jobId: id(answer.body) };
  const error = answer.body.error;
  return { refused: { code: error.code, issues: issuePaths(error.errors) } };
}

/** A failed job of the caller's, made directly in the store, for the retry door to retry. */
async function failedSource(w: World): Promise<Job> {
  const validation = validate({ ...GOOD, prompt: "the first try" });
  const { job } = await createJob(w.jobs, {
    validation,
    source: { type: "api", apiKeyId: "local" },
    reservations: [],
  });
  return w.jobs.transition(job.id, {
    from: ["queued"],
    to: "failed",
    set: { error: { code: "upstream_unavailable", message: "The upstream answered 503." } },
  });
}

const DOORS: Record<string, (w: World, request: typeof GOOD) => Promise<Answer>> = {
  api: async (w, request) =>
    fromHttp(await w.call("POST", "/v1/video/generations", request), (body) => body.task_id),
  batch: async (w, request) => {
    const made = await w.call("POST", "/v1/batches", { requests: [request] });
    expect(made.status).toBe(200);
    const results = await w.call("GET", `/v1/batches/${made.body.id}/results`);
    const [line] = results.text
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text));
    return line.job_id === null
      ? { refused: { code: line.error.code, issues: issuePaths(line.error.errors) } }
      : { jobId: line.job_id };
  },
  drop: async (w, request) => {
    const key = `inbox/world-${w.n}/shot.json`;
    await w.objects.putJson(key, request);
    const outcome = await ingestDrop(w.drops, key);
    if (outcome.jobs.length === 1) return { jobId: outcome.jobs[0]!.id };
    // A drop has no answer to carry a code: its rejected/ report lists the request's issues.
    const { body } = await w.objects.getStream(`${outcome.rejectedKey}.error.json`);
    const report = JSON.parse(await new Response(body as never).text());
    return { refused: { code: "(rejected/)", issues: issuePaths(report.errors) } };
  },
  retry: async (w, request) => {
    const source = await failedSource(w);
    return fromHttp(
      await w.call("POST", `/v1/jobs/${source.id}/retry`, { duration_sec: request.duration_sec }),
      (body) => body.id,
    );
  },
};

/** The code a door's job ended with, or the door's own refusal. */
async function outcome(w: World, answer: Answer): Promise<string> {
  if (answer.refused !== undefined) return answer.refused.code;
  const job = await w.jobs.require(answer.jobId!);
  return job.status === "failed" ? (job.error?.code ?? "failed") : job.status;
}

describe("the same refusals through every door (API, batch, drop, retry): one submitJob", () => {
  it.each(Object.keys(DOORS))(
    "%s: a bad request is refused before anything is recorded, naming the same field and issue",
    async (door) => {
      const w = await world({ amount: 100, unit: "units", period: "total" });
      const answer = await DOORS[door]!(w, BAD);
      expect(answer.refused?.issues).toEqual(["duration_sec: duration_not_allowed"]);
      if (door !== "drop") expect(answer.refused?.code).toBe("invalid_request");
      // No job was made (the retry door's failed source job is all there is).
      expect((await w.all()).filter((job) => job.status !== "failed")).toEqual([]);
      expect(await w.held()).toBe(0);
    },
  );

  it.each(Object.keys(DOORS))(
    "%s: a job past the deployment's budget is refused budget_exceeded and holds nothing",
    async (door) => {
      const w = await world({ amount: 3, unit: "units", period: "total" });
      const answer = await DOORS[door]!(w, GOOD);
      // A door with a caller waiting refuses at once (402); the others' jobs refuse at admission.
      await w.dispatch();
      expect(await outcome(w, answer)).toBe("budget_exceeded");
      expect(await w.held()).toBe(0);
      if (answer.jobId === undefined)
        expect((await w.all()).filter((job) => job.status !== "failed")).toEqual([]);
    },
  );

  it.each(Object.keys(DOORS))(
    "%s: a job that waits past the queue limit ends queue_timeout and gives its reservation back",
    async (door) => {
      const w = await world({ amount: 100, unit: "units", period: "total" });
      // The one slot is taken by a job that keeps it.
      const blocker = await w.call("POST", "/v1/video/generations", GOOD);
      expect((await w.dispatch()).admitted).toEqual([blocker.body.task_id]);
      const answer = await DOORS[door]!(w, GOOD);
      expect(answer.jobId).toBeDefined();
      await w.dispatch();
      await w.expire();
      expect(await outcome(w, answer)).toBe("queue_timeout");
      // Only the blocker's 4 units are still reserved.
      expect(await w.held()).toBe(4);
    },
  );
});
