/**
 * The whole AWS bill per 1,000 jobs, by service (docs/performance.md, "The AWS
 * bill per 1,000 jobs"), for reelay and for the two baselines the orchestration figure models: the
 * Step Functions job-poller (5 s Wait) and a Lambda durable functions poller (5 s wait). The log
 * also carries the idle cost of a stage a month (rehearsal/bill/idle-run.ts), not a figure.
 *
 * Two measurements, put together by rehearsal/bill/bill.ts at the prices of rehearsal/bill/prices.ts:
 *
 * - A rehearsal (rehearsal/bill/jobs.ts): the synthesized template on this machine, JOBS video jobs
 *   through its API, each read once when done and its video downloaded once. What a job costs
 *   apart from its orchestration is read from what the stage recorded (rehearsal/bill/record.ts):
 *   the DynamoDB units of every call, the S3 requests by class and the objects left, the events,
 *   the SSM reads, the API requests, the functions outside the job flow, every function's log
 *   lines. Counted the same for all three flows: each stores, serves and announces the same job.
 * - A short orchestration pass per flow on the bench's job mix (bench/support/orchestration/, as
 *   the orchestration figure runs it, with fewer measured jobs), since the rehearsal's simulated
 *   jobs end in seconds and a real job's polls are the mix's. Per flow: state transitions, the
 *   steps' Lambda requests and GB-s (each step's memory and architecture), durable operations and
 *   checkpoint bytes, and looks at the task, which multiply the Poll step's rehearsed calls per
 *   look; the steps' and the state machine's log lines are the rehearsal's per invocation and per
 *   transition, times the flow's.
 */
import { synthJobFlowDefinition } from "@reelay/flow/synth-definition";
import {
  type Bill,
  billPer1000Jobs,
  type FlowUsage,
  type RehearsedJob,
  SERVICES,
  type Service,
} from "../../rehearsal/bill/bill.ts";
import { idleLines } from "../../rehearsal/bill/idle.ts";
import { rehearseIdle } from "../../rehearsal/bill/idle-run.ts";
import { rehearseBillJobs } from "../../rehearsal/bill/jobs.ts";
import { PRICES } from "../../rehearsal/bill/prices.ts";
import type { BenchContext, Figure } from "../support/figure.ts";
import { runDurablePass } from "../support/orchestration/durable.ts";
import { jobPollerDefinition, POLLER_WAIT_S } from "../support/orchestration/job-poller.ts";
import { drawMix, TIERS } from "../support/orchestration/mix.ts";
import { type BenchEnv, type JobMeasure, runPass, startEnv } from "../support/orchestration/run.ts";

/** Video jobs in the rehearsal, and each one's video: about 8 s of 1080p at 8 Mbit/s. */
const JOBS = 8;
const VIDEO_BYTES = 8 * 1024 * 1024;
/** As the orchestration figure: real seconds per virtual second, and the arrivals' spread. */
const TIME_SCALE = 0.12;
const ARRIVALS_MS = 60_000;
/** reelay trusts a model's history from 20 samples on (MIN_HISTORY_SAMPLES). */
const WARMUP_PER_TIER = 20;
const MEASURED_PER_TIER = 6;

const POLLER = `job-poller (${POLLER_WAIT_S} s Wait)`;
const DURABLE = `Lambda durable functions (${POLLER_WAIT_S} s wait)`;

/** Where each line's figures come from, for its note. */
const SOURCES: Record<Service, string> = {
  "Step Functions": "transitions per job from each flow's orchestration pass",
  Lambda:
    "the steps' requests and GB-s from each flow's pass; the API's, the dispatcher's and the webhook sender's from the rehearsal",
  "Lambda durable functions": "the durable poller's operations and checkpoint bytes from its pass",
  DynamoDB:
    "request units dynalite reported for each rehearsed call, twice for an item on the index (projection ALL); the Poll step's per look x each flow's looks",
  "S3 requests":
    "the rehearsed calls by class (multipart parts, tags, previews, job.json, the user's one download)",
  "S3 storage": `the rehearsed job's objects (its ${VIDEO_BYTES / 1024 ** 2} MiB video, previews, job.json) kept a month`,
  EventBridge: "events put on the bus in the rehearsal, by 64 KB chunk",
  SSM: "parameter reads in the rehearsal's warm round (each cold start reads its secrets once); standard throughput is free",
  "API Gateway": "requests the HTTP API routed in the rehearsal: a create and one read a job",
  "CloudWatch Logs":
    "the rehearsed functions' lines (+26 B each), the steps' per invocation and the state machine's events (level ALL, with data) per transition, times each flow's",
  "X-Ray":
    "one trace per execution and per invocation no state machine makes: an upper bound (sampled at 100 %)",
};

function mean<T>(list: readonly T[], pick: (x: T) => number): number {
  return list.reduce((sum, x) => sum + pick(x), 0) / Math.max(1, list.length);
}

function flowOf(measures: readonly JobMeasure[]): FlowUsage {
  const ok = measures.filter((m) => m.status === "succeeded");
  return {
    transitions: mean(ok, (m) => m.transitions),
    invocations: mean(ok, (m) => m.invocations),
    armGbSeconds: mean(ok, (m) => m.gbSeconds - m.x86GbSeconds),
    x86GbSeconds: mean(ok, (m) => m.x86GbSeconds),
    looks: mean(ok, (m) => m.looks),
  };
}

/** reelay (after a warm-up that gives it each model's history), the job-poller and durable functions. */
async function orchestrationPasses(
  env: BenchEnv,
  log: (line: string) => void,
): Promise<Record<"reelay" | "poller" | "durable", FlowUsage>> {
  const definition = synthJobFlowDefinition();
  const warmup = drawMix({ seed: 11, perTier: WARMUP_PER_TIER, arrivalSpreadMs: ARRIVALS_MS });
  const jobs = drawMix({ seed: 22, perTier: MEASURED_PER_TIER, arrivalSpreadMs: ARRIVALS_MS });
  const lost = (label: string, measures: readonly JobMeasure[]) => {
    const failed = measures.filter((m) => m.status !== "succeeded").length;
    log(`${label}: ${measures.length - failed}/${measures.length} succeeded`);
  };
  lost("warm-up", await runPass(env, { definition, reelay: true, jobs: warmup }));
  const reelay = await runPass(env, { definition, reelay: true, jobs });
  lost("reelay", reelay);
  const poller = await runPass(env, {
    definition: jobPollerDefinition(POLLER_WAIT_S),
    reelay: false,
    jobs,
  });
  lost(POLLER, poller);
  const durable = await runDurablePass(env, jobs, POLLER_WAIT_S);
  lost(DURABLE, durable);
  const ok = durable.filter((m) => m.status === "succeeded");
  return {
    reelay: flowOf(reelay),
    poller: flowOf(poller),
    durable: {
      ...flowOf(durable),
      durableOperations: mean(ok, (m) => m.operations),
      durableBytesWritten: mean(ok, (m) => m.bytesWritten),
    },
  };
}

const usd = (x: number) => `$${x.toFixed(4)}`;

function line(bill: Bill, service: Service) {
  const found = bill.lines.find((l) => l.service === service);
  if (found === undefined) throw new Error(`No ${service} line in the bill.`);
  return found;
}

/** The bill as a table on the log: service, reelay, job-poller, durable functions. */
function logTable(bills: Record<"reelay" | "poller" | "durable", Bill>, log: (s: string) => void) {
  const row = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(26) : c.padStart(12))).join(" ");
  log(`per 1,000 jobs, ${PRICES.region} prices read ${PRICES.readOn}`);
  log(row(["service", "reelay", "job-poller", "durable"]));
  for (const service of SERVICES)
    log(
      row([
        service,
        ...[bills.reelay, bills.poller, bills.durable].map((b) => usd(line(b, service).usd)),
      ]),
    );
  log(row(["total", ...[bills.reelay, bills.poller, bills.durable].map((b) => usd(b.totalUsd))]));
}

function figuresOf(
  bills: Record<"reelay" | "poller" | "durable", Bill>,
  job: RehearsedJob,
): Figure[] {
  const perService = SERVICES.map((service): Figure => {
    // Durable functions' own line is set against them; every other against the job-poller.
    const [baselineName, other, otherName] =
      service === "Lambda durable functions"
        ? [DURABLE, bills.poller, "job-poller"]
        : [POLLER, bills.durable, DURABLE];
    const value = line(bills.reelay, service).usd;
    const baseline = line(baselineName === DURABLE ? bills.durable : bills.poller, service).usd;
    return {
      name: `AWS bill per 1,000 jobs: ${service}`,
      value,
      unit: "USD",
      baselineName,
      baseline,
      // Nothing against nothing (SSM at standard throughput) is the same, not infinitely more.
      ...(value === 0 && baseline === 0 ? { ratio: 1 } : {}),
      note: `${otherName} ${usd(line(other, service).usd)}; per job: reelay ${line(bills.reelay, service).usage}, job-poller ${line(bills.poller, service).usage}, durable ${line(bills.durable, service).usage}; ${SOURCES[service]}`,
    };
  });
  const common = `${PRICES.region} prices read ${PRICES.readOn}; ${JOBS} rehearsed video jobs of ${VIDEO_BYTES / 1024 ** 2} MiB (${job.apiRequests.toFixed(1)} API requests a job) and a mix of ${TIERS.length * MEASURED_PER_TIER} jobs per flow; the job's own costs are the same in all three`;
  return [
    ...perService,
    {
      name: "AWS bill per 1,000 jobs, every service",
      value: bills.reelay.totalUsd,
      unit: "USD",
      baselineName: POLLER,
      baseline: bills.poller.totalUsd,
      // Whatever reelay's orchestration saves must not come back as a larger bill elsewhere.
      target: { on: "ratio", atMost: 1 },
      note: common,
    },
    {
      name: "AWS bill per 1,000 jobs, every service, against durable functions",
      value: bills.reelay.totalUsd,
      unit: "USD",
      baselineName: DURABLE,
      baseline: bills.durable.totalUsd,
      note: common,
    },
  ];
}

export async function figures(ctx: BenchContext): Promise<Figure[]> {
  // SST synthesizes offline only under NODE_ENV=test (rehearsal/synth.ts), as npm run rehearse
  // sets it; this figure runs in a process of its own, and nothing else here reads it.
  process.env.NODE_ENV = "test";
  const job = await rehearseBillJobs({ jobs: JOBS, videoBytes: VIDEO_BYTES, log: ctx.log });
  const env = await startEnv(ctx.tmpDir, TIME_SCALE);
  const flows = await orchestrationPasses(env, ctx.log).finally(() => env.close());
  const bills = {
    reelay: billPer1000Jobs(job, flows.reelay),
    poller: billPer1000Jobs(job, flows.poller),
    durable: billPer1000Jobs(job, flows.durable),
  };
  logTable(bills, ctx.log);
  // Beside it on the log, what a stage costs a month with no job (rehearsal/bill/idle.ts).
  await rehearseIdle({ log: ctx.log }).then(
    (idle) => {
      for (const l of idleLines(idle.bill, idle.ticks)) ctx.log(l);
    },
    (error: unknown) => ctx.log(`idle cost not measured: ${String(error)}`),
  );
  // Twice this figure's process stayed alive, idle, after its figures were printed, with SST's
  // esbuild service (the synth's) still attached; bench/main.ts prints them as soon as this
  // returns, so a process still here 10 s later ends with the exit code main.ts set.
  setTimeout(() => process.exit(), 10_000).unref();
  return figuresOf(bills, job);
}
