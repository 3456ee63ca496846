/**
 * @reelay/core/adapters: the implementations behind the ports: the DynamoDB stores and the table
 * schema, S3, EventBridge and the JSONL event file, the upstream HTTP client and the guarded
 * fetch. What packages outside core use of them.
 */
export {
  ADMISSION_KEY,
  AdmissionStore,
  QUEUE_KEY_PREFIX,
  QUEUE_PARTITION,
} from "./dynamodb/admission-table.ts";
export {
  ApiKeyStore,
  KEYS_LIST_PARTITION,
  hashApiKey,
  type ApiKeyRecord,
} from "./dynamodb/api-key-table.ts";
export {
  BATCHES_DUE_KEY,
  BATCHES_PARTITION,
  BatchStore,
  batchNotFound,
} from "./dynamodb/batch-table.ts";
export { BUDGET_KEY_PREFIX, BudgetLedger } from "./dynamodb/budget-ledger.ts";
export { DELIVERY_PARTITION_PREFIX, DeliveryStore } from "./dynamodb/delivery-table.ts";
export { GenerationStatsStore } from "./dynamodb/generation-stats-table.ts";
export { JobStore } from "./dynamodb/job-table.ts";
export { ownWebhooks } from "./dynamodb/own-webhooks.ts";
export {
  SUBSCRIBERS_PARTITION,
  SUBSCRIBER_ID_PREFIX,
  SubscriberStore,
} from "./dynamodb/subscriber-table.ts";
export {
  JOBS_LIST_INDEX,
  JOBS_TABLE_SCHEMA,
  createJobsTableInput,
} from "./dynamodb/table-schema.ts";
export { EventBridgeSink } from "./events/eventbridge.ts";
export { JsonlFileSink } from "./events/jsonl-events.ts";
export { guardedFetch, systemResolver } from "./net/guarded-fetch.ts";
export { collectGarbageForCopies } from "./s3/copier-gc.ts";
export { DigestStream } from "./s3/digest.ts";
export { ObjectStore, PART_SIZE } from "./s3/object-store.ts";
export { withUnsignedUploads } from "./s3/unsigned-uploads.ts";
export { UpstreamClient } from "./upstream/upstream-client.ts";
