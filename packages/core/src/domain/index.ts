/**
 * @reelay/core/domain: the rules, with no AWS SDK and nothing above them: errors and their codes,
 * ids, the catalog and validation, the contract's schemas and readers, the polling policy, job,
 * batch and event records, money, metric names, admission settings, webhook signing and schedule,
 * net address policy, and the failure classification. What packages outside core use of it.
 */
export {
  DEFAULT_QUEUE_TIMEOUT_S,
  PRIORITIES,
  type AdmissionSettings,
  type Priority,
} from "./admission/settings.ts";
export { BATCH_ID_PREFIX, MAX_BATCH_LINES, type Batch } from "./batches/types.ts";
export { batchNotFound } from "./batches/not-found.ts";
export {
  ERROR_CODES,
  relayedCode,
  type ErrorCode,
  type RelayedCode,
} from "./error-codes.ts";
export {
  invalidRequest,
  isReelayError,
  ReelayError,
  shownInput,
  type Issue,
} from "./errors.ts";
export { createCatalog, defaultCatalog, parseCatalogFile } from "./catalog/catalog.ts";
export type {
  Catalog,
  DurationRule,
  ImageModelSpec,
  Kind,
  ModelSpec,
  SetRule,
} from "./catalog/types.ts";
export { ON_SUNSET_CHOICES, type OnSunset } from "./catalog/resolve-request.ts";
export { imageRequestSchema, videoRequestSchema } from "./contract/schemas.ts";
export {
  AUDIT_ACTIONS,
  AUDIT_ID_PREFIX,
  type AuditAction,
  type AuditRecord,
} from "./audit/record.ts";
export { parseAuditAction, parseAuditTime } from "./audit/query.ts";
export {
  BATCH_COMPLETED,
  DETAIL_TYPES,
  EVENT_SOURCE,
  buildTerminalEvent,
  isBatchEvent,
  type ReelayEvent,
  type TerminalEvent,
} from "./events/types.ts";
export { decodeCursor } from "./jobs/cursor.ts";
export { JOB_ID_PREFIXES, JOB_ID_SOURCE, isJobId, jobIdFrom, newJobId } from "./jobs/ids.ts";
export { requestHashOf } from "./jobs/request-hash.ts";
export {
  MAX_RETENTION_DAYS,
  RETENTION_TAG,
  RETENTION_TAG_DAYS,
  linkTtlS,
  outputsExpired,
} from "./jobs/retention.ts";
export { parseOutputTarget, targetUri } from "./jobs/delivery.ts";
export type { MaterialDigests } from "./jobs/fingerprint.ts";
export { jobNotFound, type ListFilters, type ListOptions } from "./jobs/job-queries.ts";
export { jobContext, type LogContext } from "./jobs/log-context.ts";
export { manifestKey } from "./jobs/outputs.ts";
export { VERSION } from "./version.ts";
export {
  ITEM_VERSION_ATTRIBUTE,
  OBJECT_VERSION_FIELD,
  readableVersion,
  SCHEMA_VERSION,
} from "./schema-version.ts";
export {
  DEFAULT_UPLOAD_RETENTION_DAYS,
  MAX_UPLOAD_BYTES,
  pendingUploadKey,
  stagedUploadKey,
  UPLOADS_PREFIX,
  uploadNotFound,
  uploadRef,
  type PendingUpload,
  type Upload,
} from "./uploads/upload.ts";
export type { Media } from "./media/types.ts";
export { durationOf, kindedRequest, mapStrings } from "./jobs/request.ts";
export {
  JOB_STATUSES,
  isTerminal,
  type Job,
  type JobError,
  type JobKind,
  type JobOutput,
  type JobPreviews,
  type JobSource,
} from "./jobs/types.ts";
export {
  givenOptions,
  type JobOptions,
  type JobWebhook,
} from "./jobs/job-options.ts";
export {
  checkMetadata,
  MAX_METADATA_KEY,
  MAX_METADATA_PAIRS,
  MAX_METADATA_VALUE,
  type Metadata,
  mergedMetadata,
  metadataKeyProblem,
} from "./jobs/metadata.ts";
export {
  LEGACY_SCOPES,
  SCOPES,
  parseScopes,
  scopeMissing,
  type Scope,
} from "./keys/scopes.ts";
export { parseProject, projectOf } from "./keys/projects.ts";
export {
  limitsView,
  parseKeyLimits,
  rateLimited,
  type BucketTurn,
  type KeyLimits,
} from "./keys/key-limits.ts";
export {
  invalidUser,
  isUserId,
  parseUserId,
  parseUserLimits,
  userLimitsView,
  type UserLimits,
} from "./keys/end-users.ts";
export { parseExpiresAt } from "./keys/lifecycle.ts";
export type { ApiKeyRecord } from "./keys/api-key.ts";
export { MAX_PAGE_SIZE } from "./page-size.ts";
export { ALARM_DIMENSIONS } from "./metrics/alarm-dimensions.ts";
export {
  METRICS,
  METRICS_NAMESPACE,
  type MetricKind,
  type MetricName,
  type MetricNameOf,
  type MetricSpec,
} from "./metrics/names.ts";
export { parseBudget, type Budget } from "./money/budget-schema.ts";
export { DEPLOYMENT_OWNER, ledgerOf } from "./money/ledger.ts";
export { FAILURE_CLASSES } from "./money/classes.ts";
export { estimateOf, totalEstimate } from "./money/estimate.ts";
export { fromMicros, type PriceTable } from "./money/prices.ts";
export {
  USAGE_GROUPS,
  usageReport,
  type UsageGroup,
  type UsageRow,
} from "./money/report.ts";
export { usageView } from "./money/usage.ts";
export { classifiedError, moneyView, type ClassifiedError, type MoneyView } from "./money/view.ts";
export {
  outputFetchPolicy,
  safeUrl,
  type Deployment,
  type FetchPolicy,
} from "./net/policy.ts";
export type { FailureInput, FlowState } from "./pipeline/flow-state.ts";
export {
  REQUEUED_ERROR_NAME,
  TRANSIENT_ERROR_NAME,
  TransientError,
} from "./pipeline/step-errors.ts";
export {
  LAST_LOOK_MS,
  MAX_DEADLINE_MS,
  MAX_JOB_TIMEOUT_S,
  MAX_POLL_MS,
  MIN_HISTORY_SAMPLES,
  POLL_WINDOW_MS,
  jobDeadlineMs,
} from "./polling/policy.ts";
export {
  validate,
  type ValidateOptions,
  type ValidationResult,
} from "./validate/validate-request.ts";
export { FIT_MODES } from "./validate/fit.ts";
export {
  DELIVERY_ID_PREFIX,
  DELIVERY_STATUSES,
  deliveryNotFound,
  type Delivery,
} from "./webhooks/delivery.ts";
export {
  subscriberInputSchema,
  WEBHOOK_EVENT_TYPES,
  subscriberRecord,
} from "./webhooks/managed-subscriber.ts";
export { eventFromBridge, type BridgeEnvelope } from "./webhooks/payload.ts";
export { parseSubscribersText } from "./webhooks/subscribers.ts";
export { checkWebhookUrl } from "./webhooks/url-guard.ts";
export { DEFAULT_ACCOUNT, type UpstreamAccount } from "./upstreams/accounts.ts";
export { attemptsView, type AttemptView } from "./upstreams/attempts.ts";
export { currentTraceparent, inSpan } from "./tracing.ts";
