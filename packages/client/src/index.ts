/** @reelay/client: a typed client for reelay's HTTP API (docs/client.md). */
export {
  type BatchLine,
  type ClientOptions,
  type CreateOptions,
  createClient,
  createHeaders,
  type EventsOptions,
  type GenerateOptions,
  metadataHeader,
  type ReelayClient,
  type StreamFrame,
} from "./client.ts";
export type { UploadOptions } from "./uploads.ts";
export { type Issue, isReelayError, ReelayError } from "./errors.ts";
export type { components, operations, paths } from "./schema.ts";
export type {
  Answer,
  Batch,
  BatchResult,
  CreatedTask,
  Job,
  JobOutput,
  JobStatus,
  Model,
  ReelayEvent,
  RequestBody,
  Upload,
  VideoRequest,
} from "./types.ts";
export type { WaitOptions } from "./wait.ts";
