/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import { videoRequestSchema } from "@reelay/core/domain";
import { CREATE_DRY_RUN, DRY_RUN_QUERY } from "../../openapi/dry-run.ts";
import { TaskCreatedSchema, TaskSchema } from "../../openapi/responses.ts";
import {
  BODY_ERRORS,
  MODEL_HEADERS,
  MODEL_SUNSET,
  CREATE_HEADERS,
  FORBIDDEN,
  ID,
  LATER,
  NOT_FOUND,
  pathId,
  task,
  UNAUTHORIZED,
  UNAVAILABLE,
  VIDEO_ESTIMATE,
  videoUrl,
  WEBHOOK_ERRORS,
} from "../../openapi/examples.ts";
import type { Operation } from "../../openapi/operation.ts";

export const VIDEO_OPERATIONS: Record<string, Operation> = {
  "POST /v1/video/generations": {
    summary: "Create a video task",
    description:
      "Validates the request against the model's rules (hard rules refuse, soft rules warn), records a job and starts it. Answers at once with the task; poll GET /v1/video/tasks/{taskId}. `?dry_run=true` runs the same checks and answers reelay's own dry run instead (the request as it would be sent, its adjustments, warnings and estimate), making nothing.",
    tag: "video",
    auth: true,
    parameters: [...CREATE_HEADERS, CREATE_DRY_RUN],
    request: {
      contentType: "application/json",
      schema: videoRequestSchema(),
      example: {
        model: "gamma-3.1",
        prompt: "a paper boat in the rain",
        duration_sec: 8,
        resolution: "1080p",
        aspect_ratio: "16:9",
      },
    },
    response: {
      status: 200,
      contentType: "application/json",
      schema: TaskCreatedSchema,
      dryRun: true,
      headers: MODEL_HEADERS,
      example: {
        ...task(ID, "queued"),
        model: "gamma-3.1",
        requested_model: "gamma-3.1",
        warnings: [],
        estimate: VIDEO_ESTIMATE,
      },
      description:
        "The task was created (with ?dry_run=true: the CreateDryRun named at x-dry-run, nothing made).",
    },
    errors: [WEBHOOK_ERRORS, ...BODY_ERRORS, MODEL_SUNSET, DRY_RUN_QUERY, UNAUTHORIZED],
  },
  "GET /v1/video/tasks/{taskId}": {
    summary: "Query a video task",
    description:
      "The contract's task record; `video_url` (a presigned GET of reelay's S3 copy) appears only once the job succeeded.",
    tag: "video",
    auth: true,
    parameters: [pathId("taskId", ID)],
    response: {
      status: 200,
      contentType: "application/json",
      schema: TaskSchema,
      example: {
        service_task: { task_id: ID, status: "succeeded", output: { video_url: videoUrl } },
        task_id: ID,
        status: "succeeded",
        video_url: videoUrl,
        output: {
          url: videoUrl,
          bytes: 1048576,
          sha256: "9f86d08...",
          content_type: "video/mp4",
          expires_at: LATER,
        },
        error: null,
      },
      description: "The task.",
    },
    errors: [UNAUTHORIZED, FORBIDDEN, NOT_FOUND, UNAVAILABLE],
  },
};
