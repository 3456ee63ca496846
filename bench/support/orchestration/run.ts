/**
 * One pass of the orchestration bench: every job of a mix through a job-flow definition on the
 * real interpreter (aws-local-stepfunctions), with reelay's real steps against dynalite, s3rver and
 * the simulator over HTTP, all on one virtual clock. Counted from the run itself: state transitions
 * from the interpreter's event log (every state entered, every retry), Lambda invocations and billed
 * duration from the Task handlers (a Poll window's pauses count at their virtual length, the work at
 * its real length), upstream requests from the simulator's per-task counters, and detection delay
 * from the job record (upstreamDoneAt) against the simulator's task (finishesAt).
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { CreateBucketCommand, type S3Client } from "@aws-sdk/client-s3";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import ffmpeg from "@ffmpeg-installer/ffmpeg";
import {
  JOB_FLOW_STATE_NAMES,
  JOB_FLOW_STEPS,
  STEP_ARCHITECTURE,
  STEP_MEMORY_MB,
  type JobFlowStep,
} from "@reelay/flow/job-flow-names";
import {
  runJobFlowLocally,
  type ExecutionEvent,
  type LocalTaskHandler,
} from "@reelay/flow/run-local";
import {
  buildJob,
  NO_BATCHES,
  NO_BUDGETS,
  noMetrics,
  type PipelineDeps,
} from "@reelay/core/usecases";
import {
  ffmpegFrames,
  GenerationStatsStore,
  JobStore,
  guardedFetch,
  ObjectStore,
  UpstreamClient,
} from "@reelay/core/adapters";
import { type Job, outputFetchPolicy, POLL_WINDOW_MS, validate } from "@reelay/core/domain";
import { localDynamoClient, localS3Client } from "@reelay/local/aws-clients";
import { spawnDynalite } from "@reelay/local/dynalite/start";
import { ensureTable } from "@reelay/local/dynalite/table";
import { multipartExtras } from "@reelay/local/s3rver/abort-and-list-uploads";
import type { S3rverCtor } from "@reelay/local/s3rver/types";
import { jobFlowHandlers } from "@reelay/local/handlers";
import { startSimulator, type Simulator } from "@reelay/simulator";
import { VirtualClock } from "./clock.ts";
import type { MixJob } from "./mix.ts";

const UPSTREAM_KEY = "bench-orchestration";
/** Small outputs: the copy has its own figure; here the download only has to happen, the same in both flows. */
const OUTPUT_BYTES = 64 * 1024;
const TABLE = "reelay-jobs";
const BUCKET = "reelay-bench";

export interface BenchEnv {
  clock: VirtualClock;
  /** The jobs table's client and name, for the admission store of a batch pass. */
  ddb: DynamoDBDocumentClient;
  table: string;
  sim: Simulator;
  jobs: JobStore;
  objects: ObjectStore;
  upstream: UpstreamClient;
  stats: GenerationStatsStore;
  close(): Promise<void>;
}

/** s3rver in this process (one download per job), on a fresh folder. */
async function startS3(
  dir: string,
): Promise<{ s3: S3Client; bucket: string; stop(): Promise<void> }> {
  const S3rver = createRequire(import.meta.url)("s3rver") as S3rverCtor;
  const directory = join(dir, "s3");
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    resetOnClose: true,
  });
  server.middleware.unshift(multipartExtras(directory));
  const { port } = await server.run();
  const s3 = localS3Client(`http://127.0.0.1:${port}`);
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  return { s3, bucket: BUCKET, stop: () => server.close() };
}

export async function startEnv(dir: string, scale: number): Promise<BenchEnv> {
  const clock = new VirtualClock(scale);
  // The stack's own dynalite child, on this run's folder: the database works on the second core.
  const dynamo = await spawnDynalite(join(dir, "dynamo"), "127.0.0.1");
  const ddb = localDynamoClient(`http://127.0.0.1:${dynamo.port}`);
  await ensureTable(ddb, TABLE);
  const s3 = await startS3(dir);
  const sim = await startSimulator({
    apiKey: UPSTREAM_KEY,
    now: clock.nowMs,
    timeScale: 1,
    outputBytes: OUTPUT_BYTES,
  });
  return {
    clock,
    ddb,
    table: TABLE,
    sim,
    jobs: new JobStore(ddb, TABLE, { now: clock.now }),
    objects: new ObjectStore(s3.s3, s3.bucket),
    upstream: new UpstreamClient({
      baseUrl: sim.url,
      apiKey: UPSTREAM_KEY,
      sleep: clock.sleep,
      now: clock.nowMs,
    }),
    stats: new GenerationStatsStore(ddb, TABLE, { now: clock.now }),
    async close() {
      await sim.close();
      ddb.destroy();
      s3.s3.destroy();
      await s3.stop();
      await dynamo.stop();
    },
  };
}

export interface JobMeasure {
  jobId: string;
  model: string;
  status: string;
  /** The job's error code when it did not succeed. */
  errorCode: string | undefined;
  transitions: number;
  invocations: number;
  gbSeconds: number;
  /** Of gbSeconds, those of x86_64 functions (priced higher). */
  x86GbSeconds: number;
  /** gbSeconds by Task state. */
  gbSecondsByState: Record<string, number>;
  /** Every request the upstream saw for this job: create, task queries, output downloads. */
  upstreamRequests: number;
  /** Of those, task queries (the Poll looks and Download's fresh-URL query). */
  taskQueries: number;
  /** Upstream completion to reelay's look that saw it (virtual ms); undefined if never seen done. */
  detectionMs: number | undefined;
  /** The Poll steps' looks, and the virtual time from the create to the look that saw it done. */
  looks: number;
  watchedMs: number | undefined;
}

export interface PassOptions {
  definition: Record<string, unknown>;
  /** reelay: generation stats and the Poll window. The baseline: neither (one look per Poll). */
  reelay: boolean;
  jobs: readonly MixJob[];
}

interface Meter {
  realPausedMs: number;
  virtualPausedMs: number;
}

const stepOfState = new Map(
  JOB_FLOW_STEPS.map((step) => [JOB_FLOW_STATE_NAMES[step], step] as [string, JobFlowStep]),
);

type Usage = {
  transitions: number;
  invocations: number;
  gbSeconds: number;
  x86GbSeconds: number;
  gbSecondsByState: Record<string, number>;
};

/** Per job: state transitions, Lambda invocations and GB-s, filled in as the flows run. */
export class UsageMeter {
  readonly #usage = new Map<string, Usage>();

  of(jobId: string): Usage {
    const u = this.#usage.get(jobId) ?? {
      transitions: 0,
      invocations: 0,
      gbSeconds: 0,
      x86GbSeconds: 0,
      gbSecondsByState: {},
    };
    this.#usage.set(jobId, u);
    return u;
  }

  /** Counts the interpreter's transitions (every state entered, every retry) for a job. */
  onEvent(jobId: string): (event: ExecutionEvent) => void {
    return (event) => {
      if (event.type === "StateEntered" || event.type === "StateRetried")
        this.of(jobId).transitions += 1;
    };
  }
}

/**
 * The pipeline's dependencies for a pass on the bench's parts and clock. Thumbnails on, as on the
 * stack: ffmpeg from @ffmpeg-installer makes every video's previews from the simulator's real MP4
 * in whichever step makes them, so their time is billed there.
 */
export function passDeps(env: BenchEnv, reelay: boolean): PipelineDeps {
  return {
    jobs: env.jobs,
    objects: env.objects,
    upstream: env.upstream,
    events: { emit: async () => undefined },
    fetch: guardedFetch(outputFetchPolicy("local")),
    now: env.clock.now,
    frames: ffmpegFrames(ffmpeg.path),
    batches: NO_BATCHES,
    budgets: NO_BUDGETS,
    metrics: noMetrics,
    ...(reelay
      ? { generationStats: env.stats, pollWindowMs: POLL_WINDOW_MS }
      : { pollWindowMs: 0 }),
  };
}

/**
 * The Task states' handlers, each call metered as one Lambda invocation with its own deps, whose
 * pauses (a Poll window's) are billed at their virtual length and the work at its real length.
 */
export function meteredHandlers(
  env: BenchEnv,
  deps: PipelineDeps,
  meter: UsageMeter,
): Record<string, LocalTaskHandler> {
  const { clock } = env;
  const invoke = async (state: string, input: { jobId: string }): Promise<unknown> => {
    const step = stepOfState.get(state);
    if (step === undefined) throw new Error(`No step for Task state ${state}.`);
    const paused: Meter = { realPausedMs: 0, virtualPausedMs: 0 };
    const sleep = async (ms: number) => {
      const started = performance.now();
      await clock.sleep(ms);
      paused.realPausedMs += performance.now() - started;
      paused.virtualPausedMs += ms;
    };
    const started = performance.now();
    try {
      return await jobFlowHandlers({ ...deps, sleep })[state]!(input);
    } finally {
      const billedMs = Math.max(
        1,
        Math.ceil(performance.now() - started - paused.realPausedMs + paused.virtualPausedMs),
      );
      const u = meter.of(input.jobId);
      const gbSeconds = (billedMs / 1000) * (STEP_MEMORY_MB[step] / 1024);
      u.invocations += 1;
      u.gbSeconds += gbSeconds;
      u.gbSecondsByState[state] = (u.gbSecondsByState[state] ?? 0) + gbSeconds;
      if (STEP_ARCHITECTURE[step] === "x86_64") u.x86GbSeconds += gbSeconds;
    }
  };
  return Object.fromEntries(
    Object.values(JOB_FLOW_STATE_NAMES).map((state) => [
      state,
      (input: { jobId: string }) => invoke(state, input),
    ]),
  );
}

/** A job of the mix, created in the job store as the API would (its generation time as a simulator directive). */
export async function createMixJob(env: BenchEnv, mixJob: MixJob, index: number): Promise<Job> {
  const validation = validate({
    model: mixJob.model,
    prompt: `bench job ${index} [[sim:generation_ms=${mixJob.generationMs}]]`,
    duration_sec: mixJob.durationSec,
  });
  return env.jobs.create(buildJob({ validation, source: { type: "api" }, now: env.clock.now() }));
}

/** Runs every job of the pass (each starting at its arrival time) to its end, and measures each. */
export async function runPass(env: BenchEnv, opts: PassOptions): Promise<JobMeasure[]> {
  const { clock } = env;
  const meter = new UsageMeter();
  const handlers = meteredHandlers(env, passDeps(env, opts.reelay), meter);
  const passStart = clock.nowMs();
  const ids: string[] = [];
  const executions: Promise<unknown>[] = [];
  for (const [index, mixJob] of opts.jobs.entries()) {
    const due = passStart + mixJob.arrivalMs - clock.nowMs();
    if (due > 0) await clock.sleep(due);
    const job = await createMixJob(env, mixJob, index);
    ids.push(job.id);
    executions.push(
      runJobFlowLocally({
        definition: opts.definition,
        handlers,
        input: { jobId: job.id },
        executionName: job.id,
        waitScale: clock.scale,
        onEvent: meter.onEvent(job.id),
      }).catch(() => undefined),
    );
  }
  await Promise.all(executions);
  return measureJobs(env, ids, meter);
}

/** Each job's usage, upstream requests and detection delay, from its record and the simulator's counters. */
export async function measureJobs(
  env: BenchEnv,
  ids: readonly string[],
  meter: UsageMeter,
): Promise<JobMeasure[]> {
  const counters = env.sim.counters();
  return Promise.all(
    ids.map(async (jobId): Promise<JobMeasure> => {
      const job = await env.jobs.require(jobId);
      const taskId = job.upstreamTaskId ?? "";
      const task = env.sim.task(taskId);
      const taskQueries = counters.pollsByTask[taskId] ?? 0;
      const seen = job.upstreamDoneAt === undefined ? undefined : Date.parse(job.upstreamDoneAt);
      return {
        jobId,
        model: job.model,
        status: job.status,
        errorCode: job.error?.code,
        ...meter.of(jobId),
        upstreamRequests:
          (counters.createsByKey[job.idempotencyKey] ?? 0) +
          taskQueries +
          (counters.downloadsByTask[taskId] ?? 0),
        taskQueries,
        detectionMs: seen === undefined || task === undefined ? undefined : seen - task.finishesAt,
        looks: job.polls,
        watchedMs:
          seen === undefined || job.submittedAt === undefined
            ? undefined
            : seen - Date.parse(job.submittedAt),
      };
    }),
  );
}
