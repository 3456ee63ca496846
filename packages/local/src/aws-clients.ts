/**
 * The AWS SDK clients the local stack, its tests and the CLI speak to dynalite and s3rver with,
 * tuned for a server on this machine: uploads s3rver never checks are not hashed, the SDK's logger
 * middleware is dropped, and many sockets are kept open. Every call is signed by the SDK's own
 * signer, as on AWS.
 */
import { Agent } from "node:http";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { withUnsignedUploads } from "@reelay/core/adapters";
import type { RetryStrategyV2, RetryToken } from "@smithy/types";

export const LOCAL_REGION = "us-east-1";
/** s3rver accepts only this pair; dynalite accepts any. */
export const LOCAL_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/**
 * The SDK's logger middleware copies every input and output through a sensitive-data filter for
 * its logger, even the default one that logs nothing: whole job records, on every call.
 */
function withoutSdkLogging(client: { middlewareStack: { remove(name: string): boolean } }): void {
  client.middlewareStack.remove("loggerMiddleware");
}

/** Sockets per local client: with the SDK's default of 50, calls queue once many jobs are in flight. */
const LOCAL_MAX_SOCKETS = 256;

function localRequests(): { httpAgent: Agent } {
  return { httpAgent: new Agent({ keepAlive: true, maxSockets: LOCAL_MAX_SOCKETS }) };
}

/**
 * Retries for calls to dynalite that meet it down: while the child restarts (a recycle, or after a
 * crash: about half a second, several seconds on a busy machine) connections are refused. Each call
 * retries such errors (and dynalite's 5xx) until DYNALITE_RETRY_WINDOW_MS have passed since its
 * first try, the n-th retry after min(n x 100, 500) ms; a client error such as a refused condition
 * is never retried. The bound is time, not a count, so a restart slowed by a loaded machine is
 * ridden out the same as a quick one. Unlike the SDK's standard strategy (three attempts, a random
 * backoff from 0, a retry quota shared by every call) nothing is shared: a recycle during a burst
 * must not use up the retries of the calls that come after it.
 */
const DYNALITE_RETRY_WINDOW_MS = 30_000;
const dynaliteRetries: RetryStrategyV2 = {
  acquireInitialRetryToken: async () => retryToken(0, Date.now()),
  refreshRetryTokenForRetry: async (token, error) => {
    const { started } = token as DynaliteRetryToken;
    if (error.errorType === "CLIENT_ERROR" || Date.now() - started > DYNALITE_RETRY_WINDOW_MS)
      throw new Error("no retry left");
    return retryToken(token.getRetryCount() + 1, started);
  },
  recordSuccess: () => undefined,
};

interface DynaliteRetryToken extends RetryToken {
  /** When the call's first try was sent. */
  readonly started: number;
}

function retryToken(retries: number, started: number): DynaliteRetryToken {
  return {
    started,
    getRetryCount: () => retries,
    getRetryDelay: () => Math.min(retries * 100, 500),
  };
}

/** A DynamoDB document client for dynalite: the SDK's own signer, many sockets, no SDK logging. */
export function localDynamoClient(endpoint: string): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: LOCAL_REGION,
    endpoint,
    credentials: LOCAL_CREDENTIALS,
    requestHandler: localRequests(),
    retryStrategy: dynaliteRetries,
  });
  withoutSdkLogging(client);
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

/**
 * An S3 client for s3rver: path-style, its fixed credentials, no flexible checksums (s3rver predates
 * them), uploads signed with UNSIGNED-PAYLOAD as on AWS (core's adapters/s3/unsigned-uploads.ts).
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
  return withUnsignedUploads(client);
}
