/**
 * The rehearsal's stage: the synthesized template brought up on this machine. The table and the
 * bucket are dynalite and s3rver under the template's names; every function runs from its bundle
 * under Node 22 in processes of its own, with the template's environment and its own role's
 * credentials; every AWS call they make goes through one gateway that checks it against that
 * role's policy; the state machine, the HTTP API, the bus's rules, the bucket's notification and
 * the schedules are read from the template. The upstream is a pool of two simulated accounts.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import { startStandins, type Standins } from "@reelay/local/aws-standins";
import { type SimulatedAccounts, startSimulatedAccounts } from "@reelay/local/sim-accounts";
import {
  type Assembly,
  REHEARSAL_ACCOUNT,
  REHEARSAL_STAGE,
  rehearsalAssembly,
} from "./assembly.ts";
import { type Gateway, startGateway } from "./aws/gateway.ts";
import { awsStandins, ParameterStore } from "./aws/standins.ts";
import { StepFunctions } from "./aws/states.ts";
import { type TemplateFunction, templateFunctions, templateRole } from "./functions.ts";
import { IamGate, type Role } from "./iam/gate.ts";
import { LambdaFunction } from "./lambda/function.ts";
import { ensureNode22 } from "./lambda/node22.ts";
import { type Account, type Json, ResolvedTemplate } from "./template.ts";
import { EventBus } from "./wires/bus.ts";
import { startHttpApi } from "./wires/http-api.ts";
import { BucketNotifications } from "./wires/notifications.ts";
import { Scheduler } from "./wires/schedule.ts";

export interface StageOptions {
  /** Multiplies every Wait and Retry interval of the state machine (compressed time). */
  waitScale?: number;
  /** The simulated upstream's generation time per task, real milliseconds. */
  generationMs?: number;
  /** Deploy settings beyond the pool (as `sst deploy` would read them). */
  deployEnv?: Record<string, string>;
  /** Each function's log lines; default: kept, not printed. */
  onLog?: (fn: string, line: string) => void;
}

export interface RehearsedFunction {
  spec: TemplateFunction;
  role: Role;
  lambda: LambdaFunction;
}

export interface Stage {
  apiUrl: string;
  apiKey: string;
  account: Account;
  template: ResolvedTemplate;
  assembly: Assembly;
  functions: RehearsedFunction[];
  gate: IamGate;
  gateway: Gateway;
  states: StepFunctions;
  bus: EventBus;
  scheduler: Scheduler;
  sim: SimulatedAccounts;
  standins: Standins;
  bucket: string;
  tableName: string;
  /** Resolves when no function runs and no execution is under way. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const ACCOUNT: Account = {
  partition: "aws",
  region: "us-east-1",
  accountId: REHEARSAL_ACCOUNT,
  stackName: `${REHEARSAL_STAGE}-reelay-ReelayStack`,
};

/** The pool the rehearsal deploys with: each account's key goes into its SST secret, not the template. */
function poolSettings(sim: SimulatedAccounts): Record<string, string> {
  return {
    REELAY_UPSTREAMS: JSON.stringify(
      sim.accounts.map((a) => ({ name: a.name, url: a.url, api_key: a.apiKey, concurrency: 4 })),
    ),
    REELAY_FALLBACK_ATTEMPTS: "1",
  };
}

/** The values `npx sst secrets set` would have put in SSM for this stage. */
function secrets(sim: SimulatedAccounts, apiKey: string): Record<string, string> {
  const prefix = `/sst/reelay/${REHEARSAL_STAGE}/Secret`;
  return {
    [`${prefix}/REELAY_API_KEY/value`]: apiKey,
    // docs/deploy.md: '[]' when the deployment has no subscribers of its own.
    [`${prefix}/REELAY_WEBHOOKS/value`]: "[]",
    ...Object.fromEntries(
      sim.accounts.map((a) => [
        `${prefix}/UPSTREAM_API_KEY_${a.name.toUpperCase().replaceAll("-", "_")}/value`,
        a.apiKey,
      ]),
    ),
  };
}

/** The local table must be the template's: same key schema and indexes. */
async function checkTable(
  rt: ResolvedTemplate,
  standins: Standins,
  tableId: string,
): Promise<void> {
  const declared = rt.require(tableId).Properties ?? {};
  const { Table } = await standins.ddb.send(
    new DescribeTableCommand({ TableName: standins.tableName }),
  );
  const keys = (schema: unknown) => JSON.stringify(schema ?? []);
  const indexes = (list: unknown) =>
    ((list as { IndexName: string; KeySchema: unknown }[] | undefined) ?? [])
      .map((i) => `${i.IndexName}:${keys(i.KeySchema)}`)
      .sort()
      .join(";");
  const problems = [
    keys(Table?.KeySchema) === keys(declared.KeySchema) ? "" : "key schema",
    indexes(Table?.GlobalSecondaryIndexes) === indexes(declared.GlobalSecondaryIndexes)
      ? ""
      : "indexes",
  ].filter(Boolean);
  if (problems.length > 0)
    throw new Error(
      `The local table differs from the template's ${tableId} in its ${problems.join(" and ")}.`,
    );
}

function only(rt: ResolvedTemplate, type: string): string {
  const ids = rt.ofType(type);
  if (ids.length !== 1)
    throw new Error(`The rehearsal expects one ${type}, the template has ${ids.length}.`);
  return ids[0]!;
}

export async function startStage(options: StageOptions = {}): Promise<Stage> {
  const dataDir = await mkdtemp(join(tmpdir(), "reelay-rehearsal-"));
  const closers: (() => Promise<void>)[] = [() => rm(dataDir, { recursive: true, force: true })];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    return await bringUp(dataDir, options, closers, close);
  } catch (error) {
    await close();
    throw error;
  }
}

async function bringUp(
  dataDir: string,
  options: StageOptions,
  closers: (() => Promise<void>)[],
  close: () => Promise<void>,
): Promise<Stage> {
  const [nodePath, sim] = await Promise.all([
    ensureNode22(),
    startSimulatedAccounts(
      [
        { name: "alpha", cap: 4 },
        { name: "beta", cap: 4 },
      ],
      { dataDir, generationMs: options.generationMs ?? 1500, timeScale: 1 },
    ),
  ]);
  closers.push(() => sim.close());
  const assembly = await rehearsalAssembly({ ...poolSettings(sim), ...options.deployEnv });
  const rt = new ResolvedTemplate(assembly.template, ACCOUNT);
  const tableId = only(rt, "AWS::DynamoDB::Table");
  const busId = only(rt, "AWS::Events::EventBus");
  const bucketId = rt
    .ofType("AWS::S3::Bucket")
    .find((id) => rt.require(id).Properties?.AccessControl === undefined);
  if (bucketId === undefined) throw new Error("The template has no bucket for outputs.");
  const standins = await startStandins({
    dataDir,
    tableName: rt.nameOf(tableId),
    bucket: rt.nameOf(bucketId),
  });
  closers.push(() => standins.close());
  await checkTable(rt, standins, tableId);

  const specs = templateFunctions(rt, assembly.assetsDir);
  const roleIds = [...new Set([...specs.map((s) => s.roleLogicalId), ...machineRoles(rt)])];
  const keys = new Map(roleIds.map((id, i) => [id, `ASIAREHEARSAL${String(i).padStart(4, "0")}`]));
  const secretOf = new Map(
    [...keys.values()].map((key) => [key, randomBytes(30).toString("base64url")]),
  );
  const roles = new Map(roleIds.map((id) => [keys.get(id)!, templateRole(rt, id)]));
  const gate = new IamGate(roles, {
    partition: ACCOUNT.partition,
    region: ACCOUNT.region,
    accountId: ACCOUNT.accountId,
    partitionKeyOf: partitionKeys(rt, tableId),
  });

  const apiKey = randomBytes(24).toString("base64url");
  const parameters = new ParameterStore(rt, secrets(sim, apiKey));
  let functions: RehearsedFunction[] = [];
  const byName = (nameOrArn: string) =>
    functions.find(
      (f) =>
        f.spec.name === nameOrArn || f.spec.arn === nameOrArn || f.spec.logicalId === nameOrArn,
    );
  const states = new StepFunctions(rt, {
    gate,
    accessKeyOfRole: (id) => keys.get(id) ?? "unknown-role",
    waitScale: options.waitScale ?? 0.05,
    invoke: async (arn, input) => {
      const fn = byName(arn);
      if (fn === undefined)
        return {
          ok: false,
          errorType: "Lambda.ResourceNotFoundException",
          errorMessage: `No function ${arn}.`,
        };
      return (await fn.lambda.invoke(input)).result;
    },
  });
  closers.push(() => states.idle());
  const invokeAsync = (logicalId: string, event: unknown) =>
    byName(logicalId)?.lambda.invokeAsync(event);
  const bus = new EventBus(assembly.template, invokeAsync, {
    region: ACCOUNT.region,
    accountId: ACCOUNT.accountId,
    busNames: { [busId]: rt.nameOf(busId) },
  });
  const notifications = new BucketNotifications(assembly.template, invokeAsync, {
    bucketNames: { [bucketId]: rt.nameOf(bucketId) },
    region: ACCOUNT.region,
  });
  const gateway = await startGateway({
    gate,
    secretFor: (key) => secretOf.get(key),
    region: ACCOUNT.region,
    dynamoEndpoint: standins.dynamoEndpoint,
    s3Endpoint: standins.s3Endpoint,
    standins: awsStandins({ parameters, bus, states, byName }),
    onObjectCreated: (created) => notifications.objectCreated(created),
  });
  closers.push(() => gateway.close());

  functions = specs.map((spec) => {
    const roleKey = keys.get(spec.roleLogicalId)!;
    const lambda = new LambdaFunction({
      name: spec.name,
      arn: spec.arn,
      handler: spec.handler,
      codeDir: spec.codeDir,
      environment: spec.environment,
      standinEnvironment: { AWS_ENDPOINT_URL: gateway.url },
      memoryMb: spec.memoryMb,
      timeoutS: spec.timeoutS,
      region: ACCOUNT.region,
      credentials: {
        accessKeyId: roleKey,
        secretAccessKey: secretOf.get(roleKey)!,
        sessionToken: randomBytes(32).toString("base64url"),
      },
      nodePath,
      onLog: (line) => options.onLog?.(spec.name, line),
    });
    return { spec, role: roles.get(roleKey)!, lambda };
  });
  closers.push(async () => {
    await Promise.all(functions.map((f) => f.lambda.close()));
  });

  const api = await startHttpApi(
    assembly.template,
    async (logicalId, event) => {
      const fn = byName(logicalId);
      if (fn === undefined)
        return { ok: false, errorType: "ResourceNotFound", errorMessage: logicalId };
      return (await fn.lambda.invoke(event)).result;
    },
    { region: ACCOUNT.region, accountId: ACCOUNT.accountId },
  );
  closers.push(() => api.close());
  const scheduler = new Scheduler(assembly.template, invokeAsync, {
    region: ACCOUNT.region,
    accountId: ACCOUNT.accountId,
  });

  const idle = async () => {
    for (let round = 0; round < 3; round++) {
      await states.idle();
      await Promise.all(functions.map((f) => f.lambda.idle()));
    }
  };
  return {
    apiUrl: api.url,
    apiKey,
    account: ACCOUNT,
    template: rt,
    assembly,
    functions,
    gate,
    gateway,
    states,
    bus,
    scheduler,
    sim,
    standins,
    bucket: rt.nameOf(bucketId),
    tableName: rt.nameOf(tableId),
    idle,
    close,
  };
}

/** The roles of the state machines (they invoke the step functions). */
function machineRoles(rt: ResolvedTemplate): string[] {
  return rt
    .ofType("AWS::StepFunctions::StateMachine")
    .map((id) => ResolvedTemplate.logicalIdOf(rt.require(id).Properties?.RoleArn as Json));
}

/** The partition key of the table and of each of its indexes, for dynamodb:LeadingKeys. */
function partitionKeys(
  rt: ResolvedTemplate,
  tableId: string,
): (table: string, index?: string) => string | undefined {
  const p = rt.require(tableId).Properties ?? {};
  const hashOf = (schema: unknown) =>
    (schema as { AttributeName: string; KeyType: string }[]).find((k) => k.KeyType === "HASH")
      ?.AttributeName;
  const name = rt.nameOf(tableId);
  const indexes = new Map(
    (
      (p.GlobalSecondaryIndexes as { IndexName: string; KeySchema: unknown }[] | undefined) ?? []
    ).map((i) => [i.IndexName, hashOf(i.KeySchema)]),
  );
  return (table, index) => {
    if (table !== name) return undefined;
    return index === undefined ? hashOf(p.KeySchema) : indexes.get(index);
  };
}
