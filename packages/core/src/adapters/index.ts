/**
 * @reelay/core/adapters: the implementations behind the ports: the DynamoDB stores and the table
 * schema, S3, EventBridge and the JSONL event file, the upstream HTTP client and the guarded
 * fetch. What packages outside core use of them.
 */
export { AdmissionStore } from "./dynamodb/admission-table.ts";
export { ApiKeyStore, hashApiKey } from "./dynamodb/api-key-table.ts";
export { AuditStore } from "./dynamodb/audit-table.ts";
export { BatchStore } from "./dynamodb/batch-table.ts";
export { BudgetLedger } from "./dynamodb/budget-ledger.ts";
export { GenerationStatsStore } from "./dynamodb/generation-stats-table.ts";
export { JobStore } from "./dynamodb/job-table.ts";
export {
  accountAdmissionKey,
  ADMISSION_KEY,
  API_KEY_KEY_PREFIX,
  BATCHES_DUE_KEY,
  BATCHES_PARTITION,
  BUDGET_KEY_PREFIX,
  DELIVERY_PARTITION_PREFIX,
  GENERATION_STATS_KEY_PREFIX,
  KEY_LIMITS_KEY_PREFIX,
  REUSE_KEY_PREFIX,
  KEYS_LIST_PARTITION,
  QUEUE_KEY_PREFIX,
  QUEUE_PARTITION,
  SUBSCRIBERS_PARTITION,
  SUBSCRIBER_ID_PREFIX,
} from "./dynamodb/item-keys.ts";
export {
  JOBS_LIST_INDEX,
  JOBS_TABLE_SCHEMA,
  RECORD_TTL_ATTRIBUTE,
  createJobsTableInput,
} from "./dynamodb/table-schema.ts";
export { EventBridgeSink } from "./events/eventbridge.ts";
export { JsonlFileSink } from "./events/jsonl-events.ts";
export { ffmpegFrames } from "./media/ffmpeg-frames.ts";
export { guardedFetch, systemResolver } from "./net/guarded-fetch.ts";
export { collectGarbageForCopies } from "./s3/copier-gc.ts";
export { DigestStream } from "./s3/digest.ts";
export { ObjectStore, PART_SIZE } from "./s3/object-store.ts";
export { withUnsignedUploads } from "./s3/unsigned-uploads.ts";
export { UpstreamClient } from "./upstream/upstream-client.ts";
