/**
 * A rehearsed job's usage, read from what the stage recorded once its jobs have ended: each
 * function's invocations, billed time and log lines (rehearsal/lambda/function.ts), every call the
 * IAM gate let through, the DynamoDB units each call consumed (rehearsal/aws/gateway.ts), the
 * events on the bus, the executions' transitions and events, and the objects each job left in the
 * bucket. The job flow's own functions are set apart: their requests and GB-s come per flow from
 * the bench's orchestration pass (bill.ts), and the Poll step's calls are counted per look. The
 * deployed simulator's function stands in for the upstream, whose bill is not reelay's: left out.
 */
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { JOBS_TABLE_SCHEMA } from "@reelay/core/adapters";
import { JOB_FLOW_STATE_NAMES } from "@reelay/flow/job-flow-names";
import type { AwsCall } from "../aws/call.ts";
import type { FunctionStats } from "../lambda/function.ts";
import { SIMULATOR_HANDLER, type Stage } from "../stage.ts";
import { ResolvedTemplate } from "../template.ts";
import type { CallUsage, FlowUsage, LogUsage, RehearsedJob } from "./bill.ts";

/** S3's PUT, COPY, POST and LIST requests; DELETE and CANCEL are free; the rest are GET-class. */
const S3_TIER1 = new Set([
  "PutObject",
  "CopyObject",
  "UploadPart",
  "UploadPartCopy",
  "CreateMultipartUpload",
  "CompleteMultipartUpload",
  "ListParts",
  "ListObjects",
  "ListObjectsV2",
  "ListMultipartUploads",
  "PutObjectTagging",
  "CreateBucket",
]);
const S3_FREE = new Set([
  "DeleteObject",
  "DeleteObjects",
  "DeleteObjectTagging",
  "AbortMultipartUpload",
  "DeleteBucket",
]);
const SSM_READS = new Set(["GetParameter", "GetParameters", "GetParametersByPath"]);

const NO_CALLS: CallUsage = {
  dynamoReadUnits: 0,
  dynamoWriteUnits: 0,
  s3Tier1Requests: 0,
  s3Tier2Requests: 0,
  ssmReads: 0,
  events: 0,
};

/** How much the stage had recorded at a moment: a bill counts only what came after it. */
export interface Mark {
  calls: number;
  consumed: number;
  stats: ReadonlyMap<string, FunctionStats>;
  events: number;
  executions: number;
  stateLogBytes: number;
}

const START: Mark = {
  calls: 0,
  consumed: 0,
  stats: new Map(),
  events: 0,
  executions: 0,
  stateLogBytes: 0,
};

/** The stage's record so far (take it while the stage is idle). */
export function markOf(stage: Stage): Mark {
  return {
    calls: stage.gate.calls().length,
    consumed: stage.gateway.consumed().length,
    stats: new Map(stage.functions.map((f) => [f.spec.name, f.lambda.stats()])),
    events: stage.bus.billedEvents(),
    executions: stage.states.executions().length,
    stateLogBytes: stage.states.logBytes(),
  };
}

const COUNTED = [
  "invocations",
  "totalBilledMs",
  "logBytes",
  "logLines",
  "untracedLogBytes",
  "untracedLogLines",
] as const;

/** A function's figures since the mark. */
function statsSince(now: FunctionStats, before: FunctionStats | undefined) {
  return Object.fromEntries(
    COUNTED.map((field) => [field, now[field] - (before?.[field] ?? 0)]),
  ) as Record<(typeof COUNTED)[number], number>;
}

/** reelay's functions: every one but the deployed simulator's. */
function billedFunctions(stage: Stage): Stage["functions"] {
  return stage.functions.filter((f) => f.spec.handler !== SIMULATOR_HANDLER);
}

function isFunctionRole(stage: Stage, role: string): boolean {
  return stage.functions.some((f) => f.role.name === role);
}

/** The state machines' Task functions, by ARN, with the state that runs each. */
function stepStates(stage: Stage): Map<string, string> {
  const rt = stage.template;
  const steps = new Map<string, string>();
  for (const id of rt.ofType("AWS::StepFunctions::StateMachine")) {
    const definition = JSON.parse(
      rt.string(rt.require(id).Properties?.DefinitionString ?? null),
    ) as { States?: Record<string, { Type?: string; Resource?: string }> };
    for (const [name, state] of Object.entries(definition.States ?? {}))
      if (state.Type === "Task" && state.Resource !== undefined) steps.set(state.Resource, name);
  }
  return steps;
}

/** The functions the HTTP API's routes invoke: one invocation per request it routes. */
function apiFunctions(stage: Stage): Set<string> {
  const rt = stage.template;
  const ids = new Set<string>();
  for (const id of rt.ofType("AWS::ApiGatewayV2::Integration")) {
    const uri = rt.require(id).Properties?.IntegrationUri;
    try {
      if (uri !== undefined) ids.add(ResolvedTemplate.logicalIdOf(uri));
    } catch {
      // Not a function of the template (an HTTP integration): nothing of ours runs.
    }
  }
  return ids;
}

/** Whether the item a write names is on the table's index (projection ALL: its write is billed twice). */
async function indexedKeys(stage: Stage, calls: readonly AwsCall[]): Promise<Set<string>> {
  const pk = JOBS_TABLE_SCHEMA.partitionKey.name;
  const gsiPk = JOBS_TABLE_SCHEMA.indexes[0].partitionKey.name;
  const indexed = new Set<string>();
  for (const call of calls) {
    const item = call.input.Item as Record<string, { S?: string }> | undefined;
    const key = keyOf(call);
    if (key !== undefined && item?.[gsiPk] !== undefined) indexed.add(key);
  }
  const others = new Set(calls.map(keyOf).filter((k): k is string => k !== undefined));
  for (const key of others) {
    if (indexed.has(key)) continue;
    const { Item } = await stage.standins.ddb.send(
      new GetCommand({ TableName: stage.tableName, Key: { [pk]: key } }),
    );
    if (Item?.[gsiPk] !== undefined) indexed.add(key);
  }
  return indexed;
}

function keyOf(call: AwsCall): string | undefined {
  const pk = JOBS_TABLE_SCHEMA.partitionKey.name;
  const keys = (call.input.Key ?? call.input.Item) as Record<string, { S?: string }> | undefined;
  return keys?.[pk]?.S;
}

/** Every allowed call's usage since the mark, by the role that made it. */
export async function callsByRole(stage: Stage, since: Mark): Promise<Map<string, CallUsage>> {
  const byRole = new Map<string, CallUsage>();
  const roleOfKey = new Map<string, string>();
  const usage = (role: string) => {
    const u = byRole.get(role) ?? { ...NO_CALLS };
    byRole.set(role, u);
    return u;
  };
  const calls = stage.gate.calls();
  for (const { role, call } of calls) roleOfKey.set(call.accessKeyId, role);
  const billed = new Set(billedFunctions(stage).map((f) => f.role.name));
  for (const { role, call, verdict } of calls.slice(since.calls)) {
    if (!verdict.allowed || (!billed.has(role) && isFunctionRole(stage, role))) continue;
    const u = usage(role);
    if (call.service === "s3" && S3_TIER1.has(call.operation)) u.s3Tier1Requests += 1;
    else if (call.service === "s3" && !S3_FREE.has(call.operation)) u.s3Tier2Requests += 1;
    if (call.service === "ssm" && SSM_READS.has(call.operation)) u.ssmReads += 1;
  }
  const consumed = stage.gateway.consumed().slice(since.consumed);
  const indexed = await indexedKeys(
    stage,
    consumed.filter((c) => !c.read).map((c) => c.call),
  );
  for (const { call, read, units } of consumed) {
    const u = usage(roleOfKey.get(call.accessKeyId) ?? "");
    if (read) u.dynamoReadUnits += units;
    else {
      const key = keyOf(call);
      u.dynamoWriteUnits += units * (key !== undefined && indexed.has(key) ? 2 : 1);
    }
  }
  return byRole;
}

function sumCalls(list: readonly CallUsage[], per = 1): CallUsage {
  const sum = (pick: (c: CallUsage) => number) => list.reduce((s, c) => s + pick(c), 0) / per;
  return {
    dynamoReadUnits: sum((c) => c.dynamoReadUnits),
    dynamoWriteUnits: sum((c) => c.dynamoWriteUnits),
    s3Tier1Requests: sum((c) => c.s3Tier1Requests),
    s3Tier2Requests: sum((c) => c.s3Tier2Requests),
    ssmReads: sum((c) => c.ssmReads),
    events: sum((c) => c.events),
  };
}

/** Each job's looks at its upstream task, and the bytes of its objects, read past the gateway. */
async function jobFacts(
  stage: Stage,
  jobIds: readonly string[],
): Promise<{ looks: number; storedBytes: number }> {
  let looks = 0;
  let storedBytes = 0;
  for (const id of jobIds) {
    const { Item } = await stage.standins.ddb.send(
      new GetCommand({
        TableName: stage.tableName,
        Key: { [JOBS_TABLE_SCHEMA.partitionKey.name]: id },
      }),
    );
    looks += Number(Item?.polls ?? 0);
    const listed = await stage.standins.s3.send(
      new ListObjectsV2Command({ Bucket: stage.bucket, Prefix: `outputs/${id}/` }),
    );
    storedBytes += (listed.Contents ?? []).reduce((sum, o) => sum + (o.Size ?? 0), 0);
  }
  return { looks, storedBytes };
}

export interface FunctionFigures {
  name: string;
  logicalId: string;
  architecture: "arm64" | "x86_64";
  memoryMb: number;
  invocations: number;
  gbSeconds: number;
  logs: LogUsage;
  step?: string;
  api: boolean;
}

/** Each function's figures since the mark, its architecture and memory as the template gives them. */
export function functionFigures(stage: Stage, since: Mark): FunctionFigures[] {
  const steps = stepStates(stage);
  const api = apiFunctions(stage);
  return billedFunctions(stage).map(({ spec, lambda }) => {
    const stats = statsSince(lambda.stats(), since.stats.get(spec.name));
    const architectures = stage.template.require(spec.logicalId).Properties?.Architectures;
    const step = steps.get(spec.arn);
    return {
      name: spec.name,
      logicalId: spec.logicalId,
      // Lambda's default is x86_64 when the template names none.
      architecture: JSON.stringify(architectures ?? []).includes("arm64") ? "arm64" : "x86_64",
      memoryMb: spec.memoryMb,
      invocations: stats.invocations,
      gbSeconds: (stats.totalBilledMs / 1000) * (spec.memoryMb / 1024),
      // Less the lines only the rehearsal logs (no trace context: FunctionStats.untracedLogBytes).
      logs: {
        bytes: stats.logBytes - stats.untracedLogBytes,
        events: stats.logLines - stats.untracedLogLines,
      },
      ...(step === undefined ? {} : { step }),
      api: api.has(spec.logicalId),
    };
  });
}

/**
 * The usage of one of `jobIds`, on average, from everything the stage recorded since the mark
 * (its start unless given; call this once the jobs have all ended and the stage is idle).
 */
export async function rehearsedJob(
  stage: Stage,
  jobIds: readonly string[],
  since: Mark = START,
): Promise<RehearsedJob> {
  const n = jobIds.length;
  const figures = functionFigures(stage, since);
  const own = figures.filter((f) => f.step === undefined);
  const steps = figures.filter((f) => f.step !== undefined);
  const pollRoles = new Set(
    stage.functions
      .filter(
        (f) => figures.find((g) => g.name === f.spec.name)?.step === JOB_FLOW_STATE_NAMES.poll,
      )
      .map((f) => f.role.name),
  );
  const byRole = await callsByRole(stage, since);
  const { looks, storedBytes } = await jobFacts(stage, jobIds);
  const notPoll = [...byRole].filter(([role]) => !pollRoles.has(role)).map(([, u]) => u);
  const poll = [...byRole].filter(([role]) => pollRoles.has(role)).map(([, u]) => u);
  // The Poll step's reads of its secrets are its cold starts', not its looks'.
  const pollSsm = poll.reduce((s, u) => s + u.ssmReads, 0);
  const executions = stage.states.executions().slice(since.executions);
  const transitions = executions.reduce((sum, e) => sum + e.transitions, 0);
  const stepInvocations = steps.reduce((sum, f) => sum + f.invocations, 0);
  const sum = (list: FunctionFigures[], pick: (f: FunctionFigures) => number) =>
    list.reduce((s, f) => s + pick(f), 0);
  return {
    calls: {
      ...sumCalls(notPoll, n),
      ssmReads: sumCalls(notPoll, n).ssmReads + pollSsm / n,
      events: (stage.bus.billedEvents() - since.events) / n,
    },
    callsPerLook: looks === 0 ? { ...NO_CALLS } : { ...sumCalls(poll, looks), ssmReads: 0 },
    lambda: {
      requests: sum(own, (f) => f.invocations) / n,
      armGbSeconds: sum(own, (f) => (f.architecture === "arm64" ? f.gbSeconds : 0)) / n,
      x86GbSeconds: sum(own, (f) => (f.architecture === "x86_64" ? f.gbSeconds : 0)) / n,
    },
    logs: { bytes: sum(own, (f) => f.logs.bytes) / n, events: sum(own, (f) => f.logs.events) / n },
    logsPerStepInvocation: {
      bytes: sum(steps, (f) => f.logs.bytes) / Math.max(1, stepInvocations),
      events: sum(steps, (f) => f.logs.events) / Math.max(1, stepInvocations),
    },
    // The interpreter's events: each state entered and exited (two a transition), with its data.
    logsPerTransition: {
      bytes: (stage.states.logBytes() - since.stateLogBytes) / Math.max(1, transitions),
      events: 2,
    },
    apiRequests: sum(own, (f) => (f.api ? f.invocations : 0)) / n,
    storedBytes: storedBytes / n,
    // At most one trace per request that enters: each execution, each invocation of a function
    // no state machine runs (Lambda and Step Functions add the calls made inside it to it).
    traces: (executions.length + sum(own, (f) => f.invocations)) / n,
  };
}

/**
 * The job flow's usage per job as the rehearsal itself ran it: its jobs end in seconds, so their
 * looks and the Poll step's GB-s are not a real job's (the bench's bill takes them from its mix).
 */
export async function rehearsedFlow(stage: Stage, jobIds: readonly string[]): Promise<FlowUsage> {
  const n = Math.max(1, jobIds.length);
  const steps = functionFigures(stage, START).filter((f) => f.step !== undefined);
  const sum = (pick: (f: FunctionFigures) => number) => steps.reduce((s, f) => s + pick(f), 0) / n;
  const transitions = stage.states.executions().reduce((s, e) => s + e.transitions, 0);
  return {
    transitions: transitions / n,
    invocations: sum((f) => f.invocations),
    armGbSeconds: sum((f) => (f.architecture === "arm64" ? f.gbSeconds : 0)),
    x86GbSeconds: sum((f) => (f.architecture === "x86_64" ? f.gbSeconds : 0)),
    looks: (await jobFacts(stage, jobIds)).looks / n,
  };
}
