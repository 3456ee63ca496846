/**
 * DynamoDB and S3 on one machine: dynalite (in a child process) and s3rver, persisted under the data
 * dir, spoken to with the real AWS SDK clients, so the core's job store and object store run unchanged.
 */
import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdir, rename } from "node:fs/promises";
import { Agent } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
} from "@aws-sdk/client-dynamodb";
import { CreateBucketCommand, HeadBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createJobsTableInput } from "@reelay/core/jobs/schema";
import type { S3Notifications, S3rverEventRecord } from "./s3rver-extras.ts";
import { repairIndexes } from "./index-repair.ts";
import { runS3rver } from "./s3rver-run.ts";

const require = createRequire(import.meta.url);

export const LOCAL_REGION = "us-east-1";
/** s3rver accepts only this pair; dynalite accepts any. */
export const LOCAL_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
export const LOCAL_BUCKET = "reelay-local";
export const LOCAL_TABLE = "reelay-jobs";

export interface StandinOptions {
  dataDir: string;
  host?: string;
  /** Fixed S3 port so users' tools find it across restarts; 0 or a taken port = any free port. */
  s3Port?: number;
  /** s3rver in a child process (s3rver-child.ts), off this process's event loop; default in this process. */
  s3InChild?: boolean;
  bucket?: string;
  tableName?: string;
}

export interface Standins {
  bucket: string;
  tableName: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  ddb: DynamoDBDocumentClient;
  s3: S3Client;
  /** s3rver's notifications (the drops listen), from this process or from its child. */
  s3rver: S3Notifications;
  close(): Promise<void>;
}

const TABLE_WAIT_STEP_MS = 50;
/** dynalite turns a new table ACTIVE on a timer; past this, a CREATING table was left by a crash. */
const TABLE_WAIT_STEPS = 100;

function isNotFound(error: unknown): boolean {
  return (
    error instanceof ResourceNotFoundException ||
    (error as { name?: string }).name === "ResourceNotFoundException"
  );
}

/** The jobs table is CREATING for good: dynalite's timer that would finish it died with a process. */
export class TableStuckError extends Error {
  override name = "TableStuckError";
}

/**
 * Creates the jobs table when missing and returns once it is ACTIVE: dynalite answers "not found"
 * to reads of a table that is still CREATING. A table that stays CREATING was persisted by a
 * process killed mid-creation; dynalite will neither finish nor delete it (TableStuckError).
 */
export async function ensureTable(ddb: DynamoDBDocumentClient, tableName: string): Promise<void> {
  for (let step = 0; ; step++) {
    let status: string | undefined;
    try {
      status = (await ddb.send(new DescribeTableCommand({ TableName: tableName }))).Table
        ?.TableStatus;
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await ddb
        .send(new CreateTableCommand(createJobsTableInput(tableName)))
        .catch((created: unknown) => {
          if ((created as { name?: string }).name !== "ResourceInUseException") throw created;
        });
      continue;
    }
    if (status === "ACTIVE") return;
    if (step >= TABLE_WAIT_STEPS)
      throw new TableStuckError(`Table ${tableName} is stuck in ${status ?? "an unknown status"}.`);
    await new Promise((resolve) => setTimeout(resolve, TABLE_WAIT_STEP_MS));
  }
}

async function ensureBucket(s3: S3Client, bucket: string): Promise<void> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  }
}

/**
 * dynalite checks that a request carries a well-formed SigV4 Authorization header and a date, never
 * the signature itself; signing every call for real (a sha256 of the body and four HMACs) was a
 * quarter of the client's CPU per call, and a job makes about 17 calls.
 */
const dynaliteSigner = {
  sign: async <R extends { headers: Record<string, string> }>(request: R): Promise<R> => {
    const date = new Date().toISOString().replace(/[-:]|\.\d{3}/g, "");
    request.headers["x-amz-date"] = date;
    request.headers.authorization = `AWS4-HMAC-SHA256 Credential=${LOCAL_CREDENTIALS.accessKeyId}/${date.slice(0, 8)}/${LOCAL_REGION}/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=${"0".repeat(64)}`;
    return request;
  },
};

/**
 * The SDK's logger middleware copies every input and output through a sensitive-data filter for
 * its logger, even the default one that logs nothing: whole job records, on every call.
 */
function withoutSdkLogging(client: { middlewareStack: { remove(name: string): boolean } }): void {
  client.middlewareStack.remove("loggerMiddleware");
}

/** Sockets per local client: the SDK's default 50 queued calls once many jobs were in flight. */
const LOCAL_MAX_SOCKETS = 256;

function localRequests(): { httpAgent: Agent } {
  return { httpAgent: new Agent({ keepAlive: true, maxSockets: LOCAL_MAX_SOCKETS }) };
}

/** A DynamoDB document client for dynalite: the unsigned signer, many sockets, no SDK logging. */
export function localDynamoClient(endpoint: string): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: LOCAL_REGION,
    endpoint,
    credentials: LOCAL_CREDENTIALS,
    signer: dynaliteSigner,
    requestHandler: localRequests(),
  });
  withoutSdkLogging(client);
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

interface Dynamo {
  ddb: DynamoDBDocumentClient;
  endpoint: string;
  /** Ends the child (it closes its database first) and waits for it. */
  stop(): Promise<void>;
}

/** How long a stopping child (dynalite, s3rver) may take to close its store before it is killed. */
const CHILD_STOP_MS = 10_000;

interface ChildService<T> {
  /** The first line the child printed. */
  ready: T;
  /** Every later line, parsed. */
  lines: EventEmitter<{ line: [unknown] }>;
  /** Closes the child's stdin (it stops itself) and waits for it; killed past CHILD_STOP_MS. */
  stop(): Promise<void>;
}

/**
 * `node [nodeArgs] script args` as a service of this process: resolves with the JSON line it prints
 * once ready. The child ends when its stdin closes: at stop, and when this process exits or is killed.
 */
async function spawnService<T>(
  script: string,
  args: string[],
  nodeArgs: string[] = [],
): Promise<ChildService<T>> {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // A child that died already makes ending its stdin fail (EPIPE): it is gone either way.
  child.stdin.on("error", () => undefined);
  const lines = new EventEmitter<{ line: [unknown] }>();
  const ready = await new Promise<T>((resolve, reject) => {
    let started = false;
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      reject(new Error(`${script} exited (${code ?? signal}) before it was ready`)),
    );
    let buffered = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        const text = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          continue; // Not one of the child's lines (a library printing): never a reason to fail here.
        }
        if (started) lines.emit("line", parsed);
        else resolve(parsed as T);
        started = true;
      }
    });
  });
  const stop = async () => {
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), CHILD_STOP_MS);
    await exited;
    clearTimeout(timer);
  };
  return { ready, lines, stop };
}

/**
 * dynalite on its data folder in a child process (dynalite-child.mjs), so the database's work runs
 * on another core than the flows, the API and s3rver. The child ends when its stdin closes: at
 * stop, and when this process exits or is killed.
 */
export async function spawnDynalite(
  dynamoDir: string,
  host: string,
): Promise<{ port: number; stop(): Promise<void> }> {
  const script = fileURLToPath(new URL("./dynalite-child.mjs", import.meta.url));
  const { ready, stop } = await spawnService<{ port: number }>(script, [dynamoDir, host]);
  return { port: ready.port, stop };
}

/** A child's refusal to start, with the code it gave (EADDRINUSE: the port is taken). */
function childError(error: { code?: string; message?: string }): NodeJS.ErrnoException {
  return Object.assign(
    new Error(error.message ?? "s3rver did not start"),
    error.code === undefined ? {} : { code: error.code },
  );
}

/**
 * s3rver in a child process (s3rver-child.ts, run with tsx's loader), its notifications passed on
 * as events of the returned emitter. Ends with this process, as dynalite does.
 */
async function spawnS3rver(
  directory: string,
  host: string,
  port: number,
): Promise<{ s3rver: S3Notifications & { close(): Promise<void> }; port: number }> {
  const script = fileURLToPath(new URL("./s3rver-child.ts", import.meta.url));
  const loader = pathToFileURL(require.resolve("tsx")).href;
  const service = await spawnService<{
    port?: number;
    error?: { code?: string; message?: string };
  }>(script, [directory, host, String(port)], ["--import", loader]);
  if (service.ready.port === undefined) {
    await service.stop();
    throw childError(service.ready.error ?? {});
  }
  const notifications = new EventEmitter();
  service.lines.on("line", (line) => {
    const { event } = line as { event?: { Records: S3rverEventRecord[] } };
    if (event !== undefined) notifications.emit("event", event);
  });
  return {
    port: service.ready.port,
    s3rver: { on: (name, listener) => void notifications.on(name, listener), close: service.stop },
  };
}

/** dynalite on its data folder with the jobs table ACTIVE. */
async function startDynamo(dynamoDir: string, host: string, tableName: string): Promise<Dynamo> {
  const dynalite = await spawnDynalite(dynamoDir, host);
  const endpoint = `http://${host}:${dynalite.port}`;
  const ddb = localDynamoClient(endpoint);
  const stop = async () => {
    ddb.destroy();
    await dynalite.stop();
  };
  try {
    await ensureTable(ddb, tableName);
    await repairIndexes(ddb, tableName);
  } catch (error) {
    await stop();
    throw error;
  }
  return { ddb, endpoint, stop };
}

/**
 * A table stuck CREATING holds no items (dynalite refuses writes to it), but dynalite cannot finish
 * or delete it: its folder is set aside, kept for inspection, and the database starts afresh.
 */
async function startDynamoRecovering(
  dynamoDir: string,
  host: string,
  tableName: string,
): Promise<Dynamo> {
  try {
    return await startDynamo(dynamoDir, host, tableName);
  } catch (error) {
    if (!(error instanceof TableStuckError)) throw error;
    await rename(dynamoDir, `${dynamoDir}.stuck-${Date.now()}`);
    await mkdir(dynamoDir, { recursive: true });
    return startDynamo(dynamoDir, host, tableName);
  }
}

/** Starts both, creates the jobs table and the bucket when missing (a restart finds them on disk). */
export async function startStandins(options: StandinOptions): Promise<Standins> {
  const host = options.host ?? "127.0.0.1";
  const bucket = options.bucket ?? LOCAL_BUCKET;
  const tableName = options.tableName ?? LOCAL_TABLE;
  const dynamoDir = join(options.dataDir, "dynamodb");
  const s3Dir = join(options.dataDir, "s3");
  await Promise.all([mkdir(dynamoDir, { recursive: true }), mkdir(s3Dir, { recursive: true })]);

  const dynamo = await startDynamoRecovering(dynamoDir, host, tableName);
  const run = async (port: number) => {
    if (options.s3InChild === true) return spawnS3rver(s3Dir, host, port);
    const { s3rver, address } = await runS3rver(s3Dir, host, port);
    return { s3rver, port: address.port };
  };
  let started: Awaited<ReturnType<typeof run>>;
  try {
    started = await run(options.s3Port ?? 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || !options.s3Port) {
      await dynamo.stop();
      throw error;
    }
    // The usual port is taken (another stack?): any port works, healthz names the one in use.
    started = await run(0).catch(async (again: unknown) => {
      await dynamo.stop();
      throw again;
    });
  }
  const { s3rver } = started;
  const s3Endpoint = `http://${host}:${started.port}`;
  const s3 = localS3Client(s3Endpoint);
  const { ddb } = dynamo;

  const close = async () => {
    s3.destroy();
    await Promise.all([dynamo.stop(), s3rver.close()]);
  };
  try {
    await ensureBucket(s3, bucket);
  } catch (error) {
    await close();
    throw error;
  }
  return { bucket, tableName, dynamoEndpoint: dynamo.endpoint, s3Endpoint, ddb, s3, s3rver, close };
}

/** Uploads whose body the SDK would otherwise hash for the signature. */
const UPLOAD_COMMANDS = new Set(["PutObjectCommand", "UploadPartCommand"]);

/**
 * An S3 client for s3rver: path-style, its fixed credentials, no flexible checksums (s3rver predates
 * them). Uploads are signed with UNSIGNED-PAYLOAD: over plain HTTP the SDK would hash every body for
 * the signature, a second sha256 pass over each copied byte, and s3rver never checks that hash.
 */
export function localS3Client(endpoint: string): S3Client {
  const client = new S3Client({
    region: LOCAL_REGION,
    endpoint,
    credentials: LOCAL_CREDENTIALS,
    forcePathStyle: true,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: localRequests(),
  });
  withoutSdkLogging(client);
  client.middlewareStack.add(
    (next, context) => (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (UPLOAD_COMMANDS.has(context.commandName ?? "") && request.headers !== undefined) {
        request.headers["x-amz-content-sha256"] = "UNSIGNED-PAYLOAD";
      }
      return next(args);
    },
    { step: "build", name: "localUnsignedPayload" },
  );
  return client;
}
