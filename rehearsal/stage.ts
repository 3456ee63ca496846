/**
 * The rehearsal's stage: the synthesized template brought up on this machine. The table and the
 * bucket are dynalite and s3rver under the template's names; every function runs from its bundle
 * under Node 22 in processes of its own, with the template's environment and its own role's
 * credentials; every AWS call they make goes through one gateway that checks it against that
 * role's policy; the state machine, the HTTP API, the bus's rules, the bucket's notification and
 * the schedules are read from the template. The upstream is a pool of two simulated accounts and
 * the deployed simulator (stacks/simulator.ts): the template's Simulator function behind its
 * Function URL, run as every other function, an account that serves one model (TRIAL_MODEL).
 */
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, readlink, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import { PutObjectTaggingCommand, S3Client } from "@aws-sdk/client-s3";
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
import { type FunctionSpec, type InvokeResult, LambdaFunction } from "./lambda/function.ts";
import { ensureNode22 } from "./lambda/node22.ts";
import type { DeployEnv } from "./synth.ts";
import { type Account, type Json, ResolvedTemplate, type TemplateJson } from "./template.ts";
import { EventBus } from "./wires/bus.ts";
import { startFunctionUrls } from "./wires/function-url.ts";
import { type HttpApi, startHttpApi } from "./wires/http-api.ts";
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
  /** Changes the synthesized template before it runs (a test takes a grant or a setting out). */
  mutateTemplate?: (template: TemplateJson) => void;
  /** The assembly brought up for the deploy settings; default this checkout's (upgrade/ brings up the previous release's). */
  assembly?: (env: DeployEnv) => Promise<Assembly>;
  /** Whether the pool has the deployed simulator's account (default true); a release before it cannot deploy one. */
  trialAccount?: boolean;
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
  /**
   * S3 as a user of the deployment reaches it (a drop into inbox/, a read of a result): through
   * the gateway, so the bucket's notification fires, signed by a user allowed S3 on the bucket.
   */
  userS3: S3Client;
  /** Resolves when no function runs and no execution is under way. */
  idle(): Promise<void>;
  close(): Promise<void>;
  /** What a deploy over the running stage (upgrade/deploy.ts) changes. */
  deployment: Deployment;
}

interface Deployment {
  /** Each role of `rt` with its policies there (a role new to the stage gets a key); the gate judges by them from now on. */
  adoptRoles(rt: ResolvedTemplate, roleIds: readonly string[]): void;
  /** A function of the template started as the stage starts each of its own. */
  start(spec: TemplateFunction): RehearsedFunction;
  /** Run when the stage closes. */
  onClose(closer: () => Promise<void>): void;
}

const ACCOUNT: Account = {
  partition: "aws",
  region: "us-east-1",
  accountId: REHEARSAL_ACCOUNT,
  stackName: `${REHEARSAL_STAGE}-reelay-ReelayStack`,
};

/** The deployed simulator's account in the pool, and the one model it serves (no other account's scenarios ask for it). */
export const TRIAL_ACCOUNT = "trial";
export const TRIAL_MODEL = "gamma-3.1-lite";
/** The deployed simulator's function, which stands in for that account's upstream. */
export const SIMULATOR_HANDLER = "functions/simulator.handler";

/** The pool's accounts, each with the key its SST secret holds. */
function poolAccounts(sim: SimulatedAccounts, trialKey: string, trial: boolean) {
  const simulated = sim.accounts.map((a) => ({
    name: a.name,
    url: a.url,
    api_key: a.apiKey,
    concurrency: 4,
  }));
  if (!trial) return simulated;
  return [
    ...simulated,
    // More slots than the others: a job of its model that could go anywhere goes to it (balanced
    // routing breaks ties by free slots).
    {
      name: TRIAL_ACCOUNT,
      url: "simulator",
      api_key: trialKey,
      models: [TRIAL_MODEL],
      concurrency: 8,
    },
  ];
}

/** The pool the rehearsal deploys with: each account's key goes into its SST secret, not the template. */
function poolSettings(sim: SimulatedAccounts, trial: boolean): Record<string, string> {
  return {
    // The trial account's key is not in the template: any stands in for it at synth.
    REELAY_UPSTREAMS: JSON.stringify(poolAccounts(sim, "synth", trial)),
    REELAY_FALLBACK_ATTEMPTS: "1",
    // A job that never finishes upstream fails at a one-minute deadline, not the formula's minutes.
    REELAY_JOB_TIMEOUT_S: "60",
  };
}

/** The values `npx sst secrets set` would have put in SSM for this stage. */
function secrets(sim: SimulatedAccounts, apiKey: string, trial: boolean): Record<string, string> {
  const trialKey = randomBytes(24).toString("base64url");
  const prefix = `/sst/reelay/${REHEARSAL_STAGE}/Secret`;
  return {
    [`${prefix}/REELAY_API_KEY/value`]: apiKey,
    // docs/deploy.md: '[]' when the deployment has no subscribers of its own.
    [`${prefix}/REELAY_WEBHOOKS/value`]: "[]",
    ...Object.fromEntries(
      poolAccounts(sim, trialKey, trial).map((a) => [
        `${prefix}/UPSTREAM_API_KEY_${a.name.toUpperCase().replaceAll("-", "_")}/value`,
        a.api_key,
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
  const [id, ...more] = rt.ofType(type);
  if (id === undefined || more.length > 0)
    throw new Error(
      `The rehearsal expects one ${type}, the template has ${more.length + (id === undefined ? 0 : 1)}.`,
    );
  return id;
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

/** A person using the deployment's bucket (not a role of the template). */
const USER = "rehearsal-user";
const USER_KEY = "AKIAREHEARSALUSER";

/** Each role's access key and secret: the functions sign with them, the gateway checks them. */
class Identities {
  readonly #keys = new Map<string, string>();
  readonly #secrets = new Map<string, string>();
  readonly roles = new Map<string, Role>();

  constructor(rt: ResolvedTemplate, roleIds: readonly string[], bucketArn: string) {
    this.adopt(rt, roleIds);
    this.#keys.set(USER, USER_KEY);
    this.#secrets.set(USER_KEY, randomBytes(30).toString("base64url"));
    this.roles.set(USER_KEY, {
      name: USER,
      arn: `arn:aws:iam::${REHEARSAL_ACCOUNT}:user/${USER}`,
      policies: [
        {
          name: "bucket-user",
          document: {
            Statement: [
              { Effect: "Allow", Action: "s3:*", Resource: [bucketArn, `${bucketArn}/*`] },
            ],
          },
        },
      ],
    });
  }

  /** Each role with its policies in `rt`; a role without a key yet gets one. */
  adopt(rt: ResolvedTemplate, roleIds: readonly string[]): void {
    for (const id of roleIds) {
      let key = this.#keys.get(id);
      if (key === undefined) {
        key = `ASIAREHEARSAL${String(this.#keys.size).padStart(4, "0")}`;
        this.#keys.set(id, key);
        this.#secrets.set(key, randomBytes(30).toString("base64url"));
      }
      this.roles.set(key, templateRole(rt, id));
    }
  }

  /** The user's S3 client: through the gateway, signed with the user's own key. */
  userS3(gatewayUrl: string): S3Client {
    return new S3Client({
      region: ACCOUNT.region,
      endpoint: gatewayUrl,
      forcePathStyle: true,
      credentials: { accessKeyId: USER_KEY, secretAccessKey: this.secretFor(USER_KEY) ?? "" },
    });
  }

  keyOf(roleId: string): string {
    return this.#keys.get(roleId) ?? "unknown-role";
  }

  secretFor(key: string): string | undefined {
    return this.#secrets.get(key);
  }

  credentialsOf(roleId: string): FunctionSpec["credentials"] {
    const accessKeyId = this.keyOf(roleId);
    return {
      accessKeyId,
      secretAccessKey: this.secretFor(accessKeyId) ?? "",
      sessionToken: randomBytes(32).toString("base64url"),
    };
  }

  roleOf(roleId: string): Role {
    const role = this.roles.get(this.keyOf(roleId));
    if (role === undefined) throw new Error(`No role ${roleId} in the template.`);
    return role;
  }
}

/** The functions by name, ARN or logical id, as Lambda, Step Functions and the wires name them. */
class FunctionTable {
  list: RehearsedFunction[] = [];

  find(nameOrArn: string): RehearsedFunction | undefined {
    return this.list.find(
      ({ spec }) =>
        spec.name === nameOrArn || spec.arn === nameOrArn || spec.logicalId === nameOrArn,
    );
  }

  async invoke(nameOrArn: string, event: unknown): Promise<InvokeResult> {
    const fn = this.find(nameOrArn);
    if (fn === undefined)
      return {
        ok: false,
        errorType: "ResourceNotFoundException",
        errorMessage: `Function not found: ${nameOrArn}`,
      };
    return (await fn.lambda.invoke(event)).result;
  }

  invokeAsync(nameOrArn: string, event: unknown): void {
    this.find(nameOrArn)?.lambda.invokeAsync(event);
  }

  /** Resolves when no function runs and no execution is under way (each may start the other). */
  async idle(states: StepFunctions): Promise<void> {
    for (let round = 0; round < 3; round++) {
      await states.idle();
      await Promise.all(this.list.map((f) => f.lambda.idle()));
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.list.map((f) => f.lambda.close()));
  }
}

/**
 * Lambda unpacks a function's layers under /opt, and the template's settings name files there
 * (REELAY_FFMPEG_PATH=/opt/ffmpeg). The rehearsal links each layer's files there (this machine's
 * /opt, as root, as CI runs); a file already there that is not such a link is left alone and named.
 */
export async function linkLayers(dirs: readonly string[]): Promise<void> {
  for (const dir of dirs)
    for (const name of await readdir(dir)) {
      const target = join("/opt", name);
      const existing = await readlink(target).catch((error: NodeJS.ErrnoException) =>
        error.code === "ENOENT" ? undefined : "not a link",
      );
      if (existing === join(dir, name)) continue;
      if (existing !== undefined && !existing.includes(".sst/rehearsal/assets/"))
        throw new Error(`/opt/${name} exists and is not the rehearsal's layer file; move it away.`);
      await mkdir("/opt", { recursive: true });
      await rm(target, { force: true });
      await symlink(join(dir, name), target);
    }
}

interface Parts {
  sim: SimulatedAccounts;
  assembly: Assembly;
  rt: ResolvedTemplate;
  standins: Standins;
  ids: { table: string; bus: string; bucket: string };
}

/** The upstream pool, the template synthesized for it, and the table and bucket it names. */
async function startParts(
  dataDir: string,
  options: StageOptions,
  closers: (() => Promise<void>)[],
): Promise<Parts> {
  const sim = await startSimulatedAccounts(
    [
      { name: "alpha", cap: 4 },
      { name: "beta", cap: 4 },
    ],
    { dataDir, generationMs: options.generationMs ?? 1500, timeScale: 1 },
  );
  closers.push(() => sim.close());
  const trial = options.trialAccount ?? true;
  const assembly = await (options.assembly ?? rehearsalAssembly)({
    ...poolSettings(sim, trial),
    ...options.deployEnv,
  });
  const template = structuredClone(assembly.template);
  options.mutateTemplate?.(template);
  const rt = new ResolvedTemplate(template, ACCOUNT);
  const bucket = rt
    .ofType("AWS::S3::Bucket")
    .find((id) => rt.require(id).Properties?.AccessControl === undefined);
  if (bucket === undefined) throw new Error("The template has no bucket for outputs.");
  const ids = {
    table: only(rt, "AWS::DynamoDB::Table"),
    bus: only(rt, "AWS::Events::EventBus"),
    bucket,
  };
  const standins = await startStandins({
    dataDir,
    tableName: rt.nameOf(ids.table),
    bucket: rt.nameOf(ids.bucket),
  });
  closers.push(() => standins.close());
  await checkTable(rt, standins, ids.table);
  return { sim, assembly: { ...assembly, template }, rt, standins, ids };
}

interface AwsSide {
  gate: IamGate;
  states: StepFunctions;
  bus: EventBus;
  gateway: Gateway;
  apiKey: string;
}

/** IAM, Step Functions, the bus, the bucket's notification and the gateway that fronts them. */
async function startAws(
  parts: Parts,
  identities: Identities,
  functions: FunctionTable,
  options: StageOptions,
  closers: (() => Promise<void>)[],
): Promise<AwsSide> {
  const { rt, assembly, ids, standins } = parts;
  const gate = new IamGate(identities.roles, {
    partition: ACCOUNT.partition,
    region: ACCOUNT.region,
    accountId: ACCOUNT.accountId,
    partitionKeyOf: partitionKeys(rt, ids.table),
  });
  const states = new StepFunctions(rt, {
    gate,
    accessKeyOfRole: (id) => identities.keyOf(id),
    waitScale: options.waitScale ?? 0.05,
    invoke: (arn, input) => functions.invoke(arn, input),
  });
  closers.push(() => states.idle());
  const invokeAsync = (id: string, event: unknown) => functions.invokeAsync(id, event);
  const bus = new EventBus(assembly.template, invokeAsync, {
    ...REGION,
    busNames: { [ids.bus]: rt.nameOf(ids.bus) },
  });
  const notifications = new BucketNotifications(assembly.template, invokeAsync, {
    bucketNames: { [ids.bucket]: rt.nameOf(ids.bucket) },
    region: ACCOUNT.region,
  });
  const apiKey = randomBytes(24).toString("base64url");
  const parameters = new ParameterStore(
    rt,
    secrets(parts.sim, apiKey, options.trialAccount ?? true),
  );
  const gateway = await startGateway({
    gate,
    secretFor: (key) => identities.secretFor(key),
    region: ACCOUNT.region,
    dynamoEndpoint: standins.dynamoEndpoint,
    s3Endpoint: standins.s3Endpoint,
    standins: awsStandins({ parameters, bus, states, byName: (name) => functions.find(name) }),
    onObjectCreated: (created) => {
      // S3 keeps the tags a write sets; s3rver does not, so they are put on the object after it.
      if (created.tagging !== undefined)
        standins.s3
          .send(
            new PutObjectTaggingCommand({
              Bucket: created.bucket,
              Key: created.key,
              Tagging: {
                TagSet: [...new URLSearchParams(created.tagging)].map(([Key, Value]) => ({
                  Key,
                  Value,
                })),
              },
            }),
          )
          .catch(() => undefined);
      notifications.objectCreated(created);
    },
  });
  closers.push(() => gateway.close());
  return { gate, states, bus, gateway, apiKey };
}

const REGION = { region: ACCOUNT.region, accountId: ACCOUNT.accountId };

/**
 * The HTTP API and the Function URLs, first: a function's environment naming an endpoint (MCP's
 * REELAY_API_URL, the pool's deployed simulator) gets the one served here.
 */
async function serveEndpoints(
  { assembly, rt }: Parts,
  functions: FunctionTable,
  closers: (() => Promise<void>)[],
): Promise<HttpApi> {
  const invoke = (id: string, event: unknown) => functions.invoke(id, event);
  const api = await startHttpApi(assembly.template, invoke, REGION);
  closers.push(() => api.close());
  rt.serveApi(api.logicalId, api.url);
  for (const url of await startFunctionUrls(assembly.template, invoke, REGION)) {
    closers.push(() => url.close());
    rt.serveFunctionUrl(url.logicalId, url.url);
  }
  return api;
}

async function bringUp(
  dataDir: string,
  options: StageOptions,
  closers: (() => Promise<void>)[],
  close: () => Promise<void>,
): Promise<Stage> {
  const [nodePath, parts] = await Promise.all([
    ensureNode22(),
    startParts(dataDir, options, closers),
  ]);
  const { sim, assembly, rt, standins, ids } = parts;
  const functions = new FunctionTable();
  const api = await serveEndpoints(parts, functions, closers);
  const specs = templateFunctions(rt, assembly.assetsDir);
  await linkLayers(specs.flatMap((s) => s.layerDirs));
  const identities = new Identities(
    rt,
    [...new Set([...specs.map((s) => s.roleLogicalId), ...machineRoles(rt)])],
    rt.arnOf(ids.bucket),
  );
  const { gate, states, bus, gateway, apiKey } = await startAws(
    parts,
    identities,
    functions,
    options,
    closers,
  );
  const start = (spec: TemplateFunction): RehearsedFunction => ({
    spec,
    role: identities.roleOf(spec.roleLogicalId),
    lambda: new LambdaFunction({
      ...spec,
      standinEnvironment: { AWS_ENDPOINT_URL: gateway.url },
      region: ACCOUNT.region,
      credentials: identities.credentialsOf(spec.roleLogicalId),
      nodePath,
      onLog: (line) => options.onLog?.(spec.name, line),
    }),
  });
  functions.list = specs.map(start);
  closers.push(() => functions.close());
  const userS3 = identities.userS3(gateway.url);
  closers.push(async () => userS3.destroy());
  return {
    apiUrl: api.url,
    apiKey,
    account: ACCOUNT,
    template: rt,
    assembly,
    functions: functions.list,
    gate,
    gateway,
    states,
    bus,
    scheduler: new Scheduler(assembly.template, (id, e) => functions.invokeAsync(id, e), REGION),
    sim,
    standins,
    bucket: rt.nameOf(ids.bucket),
    tableName: rt.nameOf(ids.table),
    userS3,
    idle: () => functions.idle(states),
    close,
    deployment: {
      adoptRoles: (next, roleIds) => {
        identities.adopt(next, roleIds);
        gate.rolesChanged();
      },
      start,
      onClose: (closer) => closers.push(closer),
    },
  };
}

/** The roles of the state machines (they invoke the step functions). */
export function machineRoles(rt: ResolvedTemplate): string[] {
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
