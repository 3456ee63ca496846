/**
 * The AWS bill per 1,000 jobs, by service (docs/performance.md, "The AWS bill per 1,000 jobs"): the
 * arithmetic only. A job's usage is two parts added together. Its own, the same whichever way it
 * is orchestrated, measured in a rehearsal (record.ts): its records and their request units, its
 * objects and their requests, its events, its API requests, the functions outside the job flow,
 * its traces. And its orchestration, measured per flow (reelay's, the job-poller's, durable
 * functions') in the bench's orchestration pass: state transitions, the steps' Lambda requests and
 * GB-s, polls; the calls the Poll step makes and the lines the steps and the state machine log are
 * counted per look, per step invocation and per transition in the rehearsal, then multiplied by the
 * flow's own looks, invocations and transitions. Prices: prices.ts.
 */
import { PRICES } from "./prices.ts";

/** Calls a function makes, as the bill prices them. */
export interface CallUsage {
  dynamoReadUnits: number;
  dynamoWriteUnits: number;
  /** S3 PUT, COPY, POST and LIST requests. */
  s3Tier1Requests: number;
  /** S3 GET and the other requests DELETE and CANCEL are not. */
  s3Tier2Requests: number;
  ssmReads: number;
  /** EventBridge events as billed (64 KB chunks). */
  events: number;
}

export interface LogUsage {
  bytes: number;
  events: number;
}

/** What a rehearsed job used, apart from its orchestration: each a mean per job. */
export interface RehearsedJob {
  /** Every call but the Poll step's. */
  calls: CallUsage;
  /** The Poll step's calls, per look at the upstream task. */
  callsPerLook: CallUsage;
  /** The functions outside the job flow (the API, the dispatcher, the webhook sender, ...). */
  lambda: { requests: number; armGbSeconds: number; x86GbSeconds: number };
  /** The lines those functions log. */
  logs: LogUsage;
  /** The lines a step function logs per invocation, and the machine's log per transition. */
  logsPerStepInvocation: LogUsage;
  logsPerTransition: LogUsage;
  apiRequests: number;
  /** The job's objects: kept a month. */
  storedBytes: number;
  traces: number;
}

/** A flow's orchestration per job (the bench's pass). */
export interface FlowUsage {
  transitions: number;
  /** The steps' Lambda invocations, and their GB-s by architecture. */
  invocations: number;
  armGbSeconds: number;
  x86GbSeconds: number;
  /** Looks at the upstream task. */
  looks: number;
  /** Lambda durable functions only. */
  durableOperations?: number;
  durableBytesWritten?: number;
}

export const SERVICES = [
  "Step Functions",
  "Lambda",
  "Lambda durable functions",
  "DynamoDB",
  "S3 requests",
  "S3 storage",
  "EventBridge",
  "SSM",
  "API Gateway",
  "CloudWatch Logs",
  "X-Ray",
] as const;

export type Service = (typeof SERVICES)[number];

interface BillLine {
  service: Service;
  usd: number;
  /** What was priced, per job: "9.0 transitions". */
  usage: string;
}

export interface Bill {
  lines: BillLine[];
  totalUsd: number;
}

function addCalls(a: CallUsage, b: CallUsage, times: number): CallUsage {
  return {
    dynamoReadUnits: a.dynamoReadUnits + b.dynamoReadUnits * times,
    dynamoWriteUnits: a.dynamoWriteUnits + b.dynamoWriteUnits * times,
    s3Tier1Requests: a.s3Tier1Requests + b.s3Tier1Requests * times,
    s3Tier2Requests: a.s3Tier2Requests + b.s3Tier2Requests * times,
    ssmReads: a.ssmReads + b.ssmReads * times,
    events: a.events + b.events * times,
  };
}

/** The logs of a job on a flow: its own functions', its steps' and (Step Functions) its machine's. */
function logsOf(job: RehearsedJob, flow: FlowUsage): LogUsage {
  const of = (pick: (l: LogUsage) => number) =>
    pick(job.logs) +
    pick(job.logsPerStepInvocation) * flow.invocations +
    pick(job.logsPerTransition) * flow.transitions;
  return { bytes: of((l) => l.bytes), events: of((l) => l.events) };
}

const f = (x: number, digits = 2) => x.toFixed(digits);

/** The bill of 1,000 jobs of this usage on this flow, by service, in USD. */
export function billPer1000Jobs(job: RehearsedJob, flow: FlowUsage): Bill {
  const calls = addCalls(job.calls, job.callsPerLook, flow.looks);
  const lines = [
    ...computeLines(job, flow),
    ...storageLines(job, calls),
    ...serviceLines(job, calls, logsOf(job, flow)),
  ];
  return { lines, totalUsd: lines.reduce((sum, line) => sum + line.usd, 0) };
}

/** Step Functions, Lambda and durable functions. */
function computeLines(job: RehearsedJob, flow: FlowUsage): BillLine[] {
  const p = PRICES;
  const k = 1000;
  const requests = job.lambda.requests + flow.invocations;
  const arm = job.lambda.armGbSeconds + flow.armGbSeconds;
  const x86 = job.lambda.x86GbSeconds + flow.x86GbSeconds;
  const ops = flow.durableOperations ?? 0;
  const written = flow.durableBytesWritten ?? 0;
  return [
    {
      service: "Step Functions",
      usd: k * flow.transitions * p.stepFunctions.perTransitionUsd,
      usage: `${f(flow.transitions)} transitions`,
    },
    {
      service: "Lambda",
      usd:
        k *
        (requests * p.lambda.perRequestUsd +
          arm * p.lambda.perArmGbSecondUsd +
          x86 * p.lambda.perX86GbSecondUsd),
      usage: `${f(requests)} requests, ${f(arm, 3)} GB-s arm64 + ${f(x86, 3)} GB-s x86_64`,
    },
    {
      service: "Lambda durable functions",
      usd:
        k *
        (ops * p.durableFunctions.perOperationUsd +
          (written / 1024 ** 3) * p.durableFunctions.perGbWrittenUsd),
      usage: `${f(ops)} operations, ${f(written / 1024)} KB checkpointed`,
    },
  ];
}

/** DynamoDB and S3. */
function storageLines(job: RehearsedJob, calls: CallUsage): BillLine[] {
  const p = PRICES;
  const k = 1000;
  return [
    {
      service: "DynamoDB",
      usd:
        k *
        (calls.dynamoReadUnits * p.dynamodb.perReadUnitUsd +
          calls.dynamoWriteUnits * p.dynamodb.perWriteUnitUsd),
      usage: `${f(calls.dynamoReadUnits)} read + ${f(calls.dynamoWriteUnits)} write request units`,
    },
    {
      service: "S3 requests",
      usd:
        k *
        (calls.s3Tier1Requests * p.s3.perTier1RequestUsd +
          calls.s3Tier2Requests * p.s3.perTier2RequestUsd),
      usage: `${f(calls.s3Tier1Requests)} PUT/COPY/POST/LIST + ${f(calls.s3Tier2Requests)} GET-class`,
    },
    {
      service: "S3 storage",
      usd: k * (job.storedBytes / 1024 ** 3) * p.s3.perGbMonthUsd,
      usage: `${f(job.storedBytes / 1024 ** 2)} MB for a month`,
    },
  ];
}

/** EventBridge, SSM, API Gateway, CloudWatch Logs and X-Ray. */
function serviceLines(job: RehearsedJob, calls: CallUsage, logs: LogUsage): BillLine[] {
  const p = PRICES;
  const k = 1000;
  const metered = logs.bytes + logs.events * p.cloudWatchLogs.eventOverheadBytes;
  return [
    {
      service: "EventBridge",
      usd: k * calls.events * p.eventBridge.perEventUsd,
      usage: `${f(calls.events)} events`,
    },
    {
      service: "SSM",
      usd: k * calls.ssmReads * p.ssm.perStandardReadUsd,
      usage: `${f(calls.ssmReads)} parameter reads (standard throughput)`,
    },
    {
      service: "API Gateway",
      usd: k * job.apiRequests * p.apiGateway.perHttpRequestUsd,
      usage: `${f(job.apiRequests)} HTTP API requests`,
    },
    {
      service: "CloudWatch Logs",
      usd: k * (metered / 1024 ** 3) * p.cloudWatchLogs.perGbIngestedUsd,
      usage: `${f(metered / 1024, 1)} KB in ${f(logs.events, 0)} events`,
    },
    {
      service: "X-Ray",
      usd: k * job.traces * p.xray.perTraceRecordedUsd,
      usage: `${f(job.traces)} traces`,
    },
  ];
}
