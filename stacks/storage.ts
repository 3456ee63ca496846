/**
 * Where jobs live: the private bucket (inbox/, outputs/, rejected/, uploads/), the jobs table and
 * the bus that carries terminal events.
 */
import { Duration, RemovalPolicy } from "aws-cdk-lib";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as events from "aws-cdk-lib/aws-events";
import * as s3 from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";
import { JOBS_TABLE_SCHEMA, RECORD_TTL_ATTRIBUTE } from "@reelay/core/adapters";
import {
  DEFAULT_UPLOAD_RETENTION_DAYS,
  RETENTION_TAG,
  RETENTION_TAG_DAYS,
} from "@reelay/core/domain";

/**
 * Everything under uploads/ goes this many days after it was made (REELAY_UPLOAD_RETENTION_DAYS,
 * default 7): uploads (POST /v1/uploads), which the API treats as gone from their expires_at on,
 * and an image edit's references, fetched by the upstream through links signed for hours (api
 * image-edit.ts), so a week outlasts any use and the prefix does not grow without end.
 */
export const UPLOADS_EXPIRE_DAYS = DEFAULT_UPLOAD_RETENTION_DAYS;

/**
 * Outputs expire by their tag (retention_days, domain/jobs/retention.ts): one rule per day count an
 * output may be tagged with, since S3 expires in whole days and a rule has one count.
 */
function retentionRules(): s3.LifecycleRule[] {
  return RETENTION_TAG_DAYS.map((days) => ({
    id: `expire-retention-${days}d`,
    tagFilters: { [RETENTION_TAG]: String(days) },
    expiration: Duration.days(days),
  }));
}

function privateBucketProps(): s3.BucketProps {
  return {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    encryption: s3.BucketEncryption.S3_MANAGED,
  };
}

export function createStorage(
  scope: Construct,
  opts: { eventBusName: string; uploadRetentionDays?: number },
) {
  const accessLogs = new s3.Bucket(scope, "AccessLogs", {
    ...privateBucketProps(),
    // S3 log delivery writes through the LogDeliveryWrite ACL here, which needs object-writer ownership.
    objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
    lifecycleRules: [
      { expiration: Duration.days(90), abortIncompleteMultipartUploadAfter: Duration.days(1) },
    ],
    removalPolicy: RemovalPolicy.RETAIN,
  });

  const bucket = new s3.Bucket(scope, "Bucket", {
    ...privateBucketProps(),
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
    serverAccessLogsBucket: accessLogs,
    serverAccessLogsPrefix: "bucket/",
    // A download that died mid-copy leaves parts that cost money and are never completed.
    lifecycleRules: [
      { id: "abort-incomplete-multipart", abortIncompleteMultipartUploadAfter: Duration.days(1) },
      {
        id: "expire-uploads",
        prefix: "uploads/",
        expiration: Duration.days(opts.uploadRetentionDays ?? UPLOADS_EXPIRE_DAYS),
      },
      ...retentionRules(),
    ],
    removalPolicy: RemovalPolicy.RETAIN,
  });

  // The same key schema the local stack creates: the job store's own description of it.
  const table = new dynamodb.Table(scope, "Jobs", {
    partitionKey: {
      name: JOBS_TABLE_SCHEMA.partitionKey.name,
      type: dynamodb.AttributeType.STRING,
    },
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    // A job's record goes on its own, RECORD_KEPT_DAYS after its outputs expired (domain/jobs/retention.ts).
    timeToLiveAttribute: RECORD_TTL_ATTRIBUTE,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  for (const index of JOBS_TABLE_SCHEMA.indexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: { name: index.partitionKey.name, type: dynamodb.AttributeType.STRING },
      sortKey: { name: index.sortKey.name, type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.ALL,
    });
  }

  const bus = new events.EventBus(scope, "Bus", { eventBusName: opts.eventBusName });

  return { bucket, accessLogs, table, bus };
}
