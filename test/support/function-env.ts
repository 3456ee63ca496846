/**
 * The environment a function test gives a handler so that it runs as on Lambda against the local
 * stand-ins: the stack's names, and the SDK's own endpoint settings pointed at dynalite and s3rver.
 */
import type { LocalAws } from "../../packages/core/test/support/local-aws.ts";

export function functionEnv(aws: LocalAws): Record<string, string> {
  return {
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "S3RVER",
    AWS_SECRET_ACCESS_KEY: "S3RVER",
    AWS_ENDPOINT_URL_DYNAMODB: aws.dynamoEndpoint,
    AWS_ENDPOINT_URL_S3: aws.s3Endpoint,
    REELAY_TABLE_NAME: aws.tableName,
    REELAY_BUCKET_NAME: aws.bucket,
  };
}
