/**
 * Real local stand-ins for DynamoDB (dynalite) and S3 (s3rver) on 127.0.0.1, port 0, in a temp dir.
 * Tests talk to them over HTTP with the real AWS SDK clients, configured the way the local stack is.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { ensureTable } from "../../../local/src/dynalite/table.ts";
import { multipartExtras } from "../../../local/src/s3rver/abort-and-list-uploads.ts";
import type { S3rverCtor } from "../../../local/src/s3rver/types.ts";

// dynalite ships no types; s3rver's few members come with the middleware from the local stack.
type Dynalite = (options: Record<string, unknown>) => Server;

const require = createRequire(import.meta.url);
const S3rver = require("s3rver") as S3rverCtor;
const dynalite = require("dynalite") as Dynalite;

const REGION = "us-east-1";
const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface LocalAws {
  dir: string;
  tableName: string;
  bucket: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  ddb: DynamoDBDocumentClient;
  s3: S3Client;
  /** Creates another jobs table and returns once it is ACTIVE (dynalite answers "not found" before). */
  createTable(tableName: string): Promise<void>;
  stop(): Promise<void>;
}

export interface LocalAwsOptions {
  tableName?: string;
  bucket?: string;
}

function listen(server: Server): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server.address() as AddressInfo));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Starts dynalite and s3rver, creates the jobs table (from JOBS_TABLE_SCHEMA) and the bucket. */
export async function startLocalAws(options: LocalAwsOptions = {}): Promise<LocalAws> {
  const dir = await mkdtemp(join(tmpdir(), "reelay-local-aws-"));
  const tableName = options.tableName ?? "reelay-jobs";
  const bucket = options.bucket ?? "reelay-test";

  const dynamo = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const dynamoAddress = await listen(dynamo);
  const dynamoEndpoint = `http://127.0.0.1:${dynamoAddress.port}`;

  const s3rver = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: join(dir, "s3"),
    resetOnClose: false,
  });
  s3rver.middleware.unshift(multipartExtras(join(dir, "s3")));
  const s3Address = await s3rver.run();
  const s3Endpoint = `http://127.0.0.1:${s3Address.port}`;

  const ddb = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: REGION, endpoint: dynamoEndpoint, credentials }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  const s3 = new S3Client({
    region: REGION,
    endpoint: s3Endpoint,
    credentials,
    forcePathStyle: true,
    // s3rver predates the SDK's default flexible checksums.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  await ensureTable(ddb, tableName);
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));

  return {
    dir,
    tableName,
    bucket,
    dynamoEndpoint,
    s3Endpoint,
    ddb,
    s3,
    createTable: (name) => ensureTable(ddb, name),
    async stop() {
      ddb.destroy();
      s3.destroy();
      await Promise.all([close(dynamo), s3rver.close()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
