/**
 * DynamoDB and S3 on one machine: dynalite (in a child process, dynalite/) and s3rver (s3rver/),
 * persisted under the data dir, spoken to with the real AWS SDK clients (aws-clients.ts), so the
 * core's job store and object store run unchanged. The one entry the stack starts them through.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { CreateBucketCommand, HeadBucketCommand, type S3Client } from "@aws-sdk/client-s3";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { localS3Client } from "./aws-clients.ts";
import type { SupervisedService } from "./children/supervise.ts";
import { startDynamoRecovering } from "./dynalite/start.ts";
import { type Logger, silentLogger } from "./log.ts";
import { startS3rver } from "./s3rver/start.ts";
import type { S3Notifications } from "./s3rver/types.ts";

const LOCAL_BUCKET = "reelay-local";
export const LOCAL_TABLE = "reelay-jobs";

export interface StandinOptions {
  dataDir: string;
  host?: string;
  /** Fixed S3 port so users' tools find it across restarts; 0 or a taken port = any free port. */
  s3Port?: number;
  /** s3rver in a child process (s3rver/child.ts), off this process's event loop; default in this process. */
  s3InChild?: boolean;
  bucket?: string;
  /** Buckets a job's output.s3_prefix may name (REELAY_OUTPUT_BUCKETS): made beside the bucket. */
  outputBuckets?: readonly string[];
  tableName?: string;
  /** Where a child's death and restart are told; default nowhere. */
  log?: Logger;
}

type ChildInfo = Pick<SupervisedService<unknown>, "pid" | "restarts">;

export interface Standins {
  bucket: string;
  tableName: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  ddb: DynamoDBDocumentClient;
  s3: S3Client;
  /** s3rver's notifications (the drops listen), from this process or from its child. */
  s3rver: S3Notifications;
  /** The child processes (s3rver's when it runs in one): pids and restarts, for operators and tests. */
  children: { dynalite: ChildInfo; s3rver?: ChildInfo };
  close(): Promise<void>;
}

async function ensureBucket(s3: S3Client, bucket: string): Promise<void> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
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

  const log = options.log ?? silentLogger;
  const dynamo = await startDynamoRecovering(dynamoDir, host, tableName, log);
  const child = options.s3InChild === true ? { log } : undefined;
  const started = await startS3rver(s3Dir, host, options.s3Port, child).catch(
    async (error: unknown) => {
      await dynamo.stop();
      throw error;
    },
  );
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
    for (const name of options.outputBuckets ?? []) await ensureBucket(s3, name);
  } catch (error) {
    await close();
    throw error;
  }
  const children = {
    dynalite: dynamo.child,
    ...(started.child === undefined ? {} : { s3rver: started.child }),
  };
  const dynamoEndpoint = dynamo.endpoint;
  return { bucket, tableName, dynamoEndpoint, s3Endpoint, ddb, s3, s3rver, children, close };
}
