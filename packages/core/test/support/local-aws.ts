/**
 * Real local stand-ins for DynamoDB (dynalite) and S3 (s3rver) on 127.0.0.1, port 0, in a temp dir.
 * Tests talk to them over HTTP with the real AWS SDK clients, configured the way the local stack is.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { createJobsTableInput } from "../../src/jobs/schema.ts";

// Neither package ships types; these are the few members we use.
interface S3rverInstance {
  middleware: ((ctx: KoaContext, next: () => Promise<void>) => Promise<void>)[];
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
interface KoaContext {
  method: string;
  url: string;
  status: number;
  type: string;
  body: unknown;
}
type S3rverCtor = new (options: Record<string, unknown>) => S3rverInstance;
type Dynalite = (options: Record<string, unknown>) => Server;

const require = createRequire(import.meta.url);
const S3rver = require("s3rver") as S3rverCtor;
const dynalite = require("dynalite") as Dynalite;

export const REGION = "us-east-1";
const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface LocalAws {
  dir: string;
  tableName: string;
  bucket: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  ddb: DynamoDBDocumentClient;
  s3: S3Client;
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

const uploadsDir = (dir: string, bucket: string) => join(dir, bucket, "._S3rver_uploads");

/**
 * s3rver 3.7.1 has no AbortMultipartUpload or ListMultipartUploads. Both are added here over its own
 * on-disk upload folders, so abort paths are exercised for real and a test can list what is left.
 */
function multipartExtras(dir: string): S3rverInstance["middleware"][number] {
  return async (ctx, next) => {
    const url = new URL(ctx.url, "http://s3.local");
    const [bucket, ...keyParts] = url.pathname.slice(1).split("/");
    const uploadId = url.searchParams.get("uploadId");
    if (ctx.method === "DELETE" && bucket !== undefined && keyParts.length > 0 && uploadId !== null) {
      await rm(join(uploadsDir(dir, bucket), uploadId.replace(/[/\\]/g, "")), { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    if (ctx.method === "GET" && bucket !== undefined && keyParts.join("") === "" && url.searchParams.has("uploads")) {
      const ids = await readdir(uploadsDir(dir, bucket)).catch(() => [] as string[]);
      const uploads = await Promise.all(
        ids.map(async (id) => {
          const key = await readFile(join(uploadsDir(dir, bucket), id, "key"), "utf8").catch(() => "");
          return `<Upload><Key>${key}</Key><UploadId>${id}</UploadId></Upload>`;
        }),
      );
      ctx.type = "application/xml";
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult><Bucket>${bucket}</Bucket><IsTruncated>false</IsTruncated>${uploads.join("")}</ListMultipartUploadsResult>`;
      return;
    }
    await next();
  };
}

/** Starts dynalite and s3rver, creates the jobs table (from JOBS_TABLE_SCHEMA) and the bucket. */
export async function startLocalAws(options: LocalAwsOptions = {}): Promise<LocalAws> {
  const dir = await mkdtemp(join(tmpdir(), "reelay-local-aws-"));
  const tableName = options.tableName ?? "reelay-jobs";
  const bucket = options.bucket ?? "reelay-test";

  const dynamo = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const dynamoAddress = await listen(dynamo);
  const dynamoEndpoint = `http://127.0.0.1:${dynamoAddress.port}`;

  const s3rver = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: join(dir, "s3"), resetOnClose: false });
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
  await ddb.send(new CreateTableCommand(createJobsTableInput(tableName)));
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));

  return {
    dir,
    tableName,
    bucket,
    dynamoEndpoint,
    s3Endpoint,
    ddb,
    s3,
    async stop() {
      ddb.destroy();
      s3.destroy();
      await Promise.all([close(dynamo), s3rver.close()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
