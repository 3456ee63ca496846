/**
 * @reelay/core/usecases: what reelay does, written against the ports (ports.ts) rather than a
 * platform: job create and cancel, batches, drops, admission and dispatch, the pipeline steps,
 * webhook delivery, metric recording and the streamed copy. What packages outside core use of it.
 */
export { AuditLog } from "./audit/audit-log.ts";
export { AdmissionControl, isWaiting, priorityOf } from "./admission/admission-control.ts";
export { dispatch } from "./admission/dispatch.ts";
export { releaseStrandedSlots, sweep, type SweepDeps } from "./admission/queue-sweep.ts";
export {
  BatchTracker,
  batchState,
  completeDueBatches,
  completeStaleBatches,
  etaSeconds,
  resultLines,
  resultsKey,
  type BatchDeps,
  type BatchState,
} from "./batches/batch-progress.ts";
export { batchIdFrom, createBatch, newBatchId, type CheckedLine } from "./batches/create-batch.ts";
export { retryBatch } from "./batches/retry-batch.ts";
export { copyUrlToS3 } from "./copy/copy-output.ts";
export { INBOX_PREFIX, ingestDrop, type DropDeps, type DropOutcome } from "./drops/ingest.ts";
export { replacePlaceholders, withPlaceholders } from "./drops/material.ts";
export { classifyDropKey, entryLocation, parseDropFile, type DropEntry } from "./drops/parse.ts";
export { cancelJob, type CancelDeps } from "./jobs/cancel-job.ts";
export { buildJob, createJob } from "./jobs/create-job.ts";
export { emitOnce, type TerminalDeps } from "./jobs/job-end.ts";
export { retryJob } from "./jobs/retry-job.ts";
export { createUpload, findUpload } from "./uploads/uploads.ts";
export {
  completeUpload,
  createPendingUpload,
  findPendingUpload,
  type UploadPut,
} from "./uploads/pending-uploads.ts";
export { checkUploadRefs } from "./uploads/upload-links.ts";
export { NO_BUDGETS, type SubmitDeps, submitJob } from "./jobs/submit-job.ts";
export {
  admissionReading,
  recordAdmission,
  type AdmissionGauges,
  type AdmissionReading,
} from "./metrics/admission-metrics.ts";
export { NO_BATCHES, type PipelineDeps } from "./pipeline/pipeline-deps.ts";
export { download, loadMediaProbe } from "./pipeline/download-step.ts";
export { finish } from "./pipeline/finish-step.ts";
export { poll } from "./pipeline/poll-step.ts";
export { recordFailure } from "./pipeline/record-failure-step.ts";
export { submit } from "./pipeline/submit-step.ts";
export { FLOW_STEPS, type FlowStep } from "./pipeline/flow-steps.ts";
export {
  executionName,
  type ApiKeyStorePort,
  type AuditBus,
  type BatchStorePort,
  type BudgetLedgerPort,
  type Clock,
  type DispatchWaker,
  type EventSink,
  type EventSource,
  type DeliveryStorePort,
  type ExecutionStopper,
  type ExecutionStarter,
  type JobQueue,
  type JobStorePort,
  type KeyLimitsPort,
  type Metrics,
  type ObjectStorePort,
  type SubscriberStorePort,
  noMetrics,
  type TaskAnswer,
} from "./ports.ts";
export {
  purgeDeliveries,
  sweepDeliveries,
  type DeliverySweepDeps,
} from "./webhooks/delivery-sweep.ts";
export { deliveringSink, enqueueEvent } from "./webhooks/outbox.ts";
export { eventNotFound, replay } from "./webhooks/replay.ts";
export { targetsFor, type DeliveryTarget } from "./webhooks/targets.ts";
