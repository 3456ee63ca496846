/**
 * Names for the shapes users handle most, taken from the generated schema (schema.ts), so they
 * follow the OpenAPI document: a change there changes them at the next `npm run schema`.
 */
import type { paths } from "./schema.ts";

type SuccessStatus = 200 | 201 | 202;

/** The JSON body a route answers on success. */
export type Answer<
  Path extends keyof paths,
  Method extends keyof paths[Path],
> = paths[Path][Method] extends {
  responses: infer Responses;
}
  ? Responses[keyof Responses & SuccessStatus] extends {
      content: { "application/json": infer Body };
    }
    ? Body
    : never
  : never;

/** The JSON body a route takes. */
export type RequestBody<
  Path extends keyof paths,
  Method extends keyof paths[Path],
> = paths[Path][Method] extends { requestBody?: { content: { "application/json": infer Body } } }
  ? Body
  : never;

/** reelay's job record (GET /v1/jobs/{id}). */
export type Job = Answer<"/v1/jobs/{id}", "get">;
export type JobStatus = Job["status"];
export type JobOutput = Job["outputs"][number];
/** A video request in the service contract's shape (POST /v1/video/generations). */
export type VideoRequest = RequestBody<"/v1/video/generations", "post">;
/** What a create answers: the task's id and status, and validation warnings. */
export type CreatedTask = Answer<"/v1/video/generations", "post">;
export type Batch = Answer<"/v1/batches/{id}", "get">;
export type Model = Answer<"/v1/models", "get">["data"][number];
/** Material stored by POST /v1/uploads: its `url` (`upload://upl_<ulid>`) goes where a material URL does. */
export type Upload = Answer<"/v1/uploads/{id}", "get">;

/** One line of GET /v1/batches/{id}/results: the outcome of the batch's request on that line. */
export interface BatchResult {
  line: number;
  job_id: string | null;
  /** A job status, or `rejected` for a line that never became a job. */
  status: JobStatus | "rejected";
  /** Succeeded jobs only, each with a fresh presigned link. */
  outputs: { bucket: string; key: string; bytes: number; sha256: string; url: string }[];
  error: { code: string; message: string; class?: string; retryable?: boolean } | null;
  /** The job's metadata (the line's own over its batch's); {} for a rejected line or none. */
  metadata: Record<string, string>;
}

/** One event of GET /v1/events: a job's terminal event or a batch's completion. */
export interface ReelayEvent {
  id: string;
  "detail-type": string;
  source: string;
  time: string;
  detail: Record<string, unknown>;
}
