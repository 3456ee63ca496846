/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import { imageRequestSchema } from "@reelay/core/domain";
import { CREATE_DRY_RUN, DRY_RUN_QUERY } from "../../openapi/dry-run.ts";
import { ImageTaskSchema, TaskCreatedSchema } from "../../openapi/responses.ts";
import {
  BODY_ERRORS,
  MODEL_HEADERS,
  MODEL_SUNSET,
  CREATE_HEADERS,
  FORBIDDEN,
  IMAGE_ESTIMATE,
  IMAGE_EXAMPLE,
  IMAGE_ID,
  IMAGE_URL,
  LATER,
  NOT_FOUND,
  pathId,
  task,
  UNAUTHORIZED,
  UNAVAILABLE,
  WEBHOOK_ERRORS,
} from "../../openapi/examples.ts";
import type { Operation } from "../../openapi/operation.ts";

export const IMAGES_OPERATIONS: Record<string, Operation> = {
  "POST /v1/chat/completions": {
    summary: "Create an image task (chat form)",
    description:
      "The unified image contract (§2.6): `modalities` must contain `image`, `stream` false. Editing: several `image_config.reference_images` plus a prompt. `?dry_run=true` runs the same checks and answers reelay's own dry run instead, making nothing.",
    tag: "image",
    auth: true,
    parameters: [...CREATE_HEADERS, CREATE_DRY_RUN],
    request: {
      contentType: "application/json",
      schema: imageRequestSchema(),
      example: IMAGE_EXAMPLE,
    },
    response: {
      status: 200,
      contentType: "application/json",
      schema: TaskCreatedSchema,
      dryRun: true,
      headers: MODEL_HEADERS,
      example: {
        ...task(IMAGE_ID, "queued"),
        model: "deltaq2-image",
        requested_model: "deltaq2-image",
        warnings: [],
        estimate: IMAGE_ESTIMATE,
      },
      description:
        "The image task was created (with ?dry_run=true: the CreateDryRun named at x-dry-run, nothing made).",
    },
    errors: [WEBHOOK_ERRORS, ...BODY_ERRORS, MODEL_SUNSET, DRY_RUN_QUERY, UNAUTHORIZED],
  },
  "GET /v1/image/tasks/{taskId}": {
    summary: "Query an image task",
    description:
      "Status, and once succeeded the durable URLs, sizes and checksums of every image (stored under outputs/<jobId>/).",
    tag: "image",
    auth: true,
    parameters: [pathId("taskId", IMAGE_ID)],
    response: {
      status: 200,
      contentType: "application/json",
      schema: ImageTaskSchema,
      example: {
        ...task(IMAGE_ID, "succeeded"),
        model: "deltaq2-image",
        images: [
          {
            url: IMAGE_URL,
            bytes: 204800,
            sha256: "2c26b46...",
            content_type: "image/png",
            expires_at: LATER,
          },
        ],
        data: [{ url: IMAGE_URL }],
        error: null,
      },
      description: "The image task.",
    },
    errors: [UNAUTHORIZED, FORBIDDEN, NOT_FOUND, UNAVAILABLE],
  },
  "POST /v1/images/edits": {
    summary: "Edit images (OpenAI-compatible)",
    description:
      "multipart/form-data as OpenAI's images.edit: up to 7 `image`/`image[]` files, `prompt`, `model`, `n`, `size`, `response_format=url`. Files are stored in S3 and passed upstream as presigned reference_images. Answers with the task; with the opt-in wait (`?wait=<s>` or `Prefer: wait=<s>`, at most 60), in OpenAI's shape `{created, data:[{url}]}` once done, 202 with the task if still running. `?dry_run=true` checks the form and answers reelay's own dry run (the images named by their bare names `ref-<n>-<sha256 prefix>.<ext>`, nothing stored), the wait ignored.",
    tag: "image",
    auth: true,
    parameters: [
      ...CREATE_HEADERS,
      CREATE_DRY_RUN,
      {
        name: "wait",
        in: "query",
        required: false,
        description: "Seconds to wait for the result (at most 60); wins over Prefer.",
        schema: { type: "integer", minimum: 0, maximum: 60 },
        example: "30",
      },
      {
        name: "Prefer",
        in: "header",
        required: false,
        description: "RFC 7240 `wait=<s>`, as an alternative to ?wait.",
        schema: { type: "string" },
        example: "respond-async, wait=30",
      },
    ],
    request: {
      contentType: "multipart/form-data",
      schema: {
        type: "object",
        required: ["image", "prompt"],
        properties: {
          image: {
            type: "array",
            items: { type: "string", contentMediaType: "application/octet-stream" },
            minItems: 1,
            maxItems: 7,
            description: "1 to 7 image files (`image` or `image[]`).",
          },
          prompt: { type: "string", description: "What to change." },
          model: { type: "string", description: "Image model code." },
          n: { type: "integer", minimum: 1, description: "Number of images." },
          size: { type: "string", description: "e.g. 2K or 1024x1024." },
          response_format: { type: "string", enum: ["url"] },
        },
      },
      example: {
        model: "deltaq2-image",
        prompt: "replace the sky with a sunset",
        n: 1,
        size: "2K",
        response_format: "url",
        image: ["(binary)"],
      },
    },
    response: {
      status: 200,
      contentType: "application/json",
      schema: TaskCreatedSchema,
      dryRun: true,
      headers: MODEL_HEADERS,
      example: {
        ...task(IMAGE_ID, "queued"),
        model: "deltaq2-image",
        requested_model: "deltaq2-image",
        warnings: [],
        estimate: IMAGE_ESTIMATE,
      },
      description:
        "The edit task (or, with the wait, `{created, data:[{url}]}`; with ?dry_run=true, the CreateDryRun named at x-dry-run).",
    },
    errors: [
      WEBHOOK_ERRORS,
      ...BODY_ERRORS,
      MODEL_SUNSET,
      {
        status: 400,
        codes: [
          "invalid_content_type",
          "invalid_multipart",
          "unsupported_response_format",
          "invalid_query",
        ],
        when: "Not multipart/form-data, a malformed form, a response_format other than url, or a bad wait or dry_run.",
      },
      UNAUTHORIZED,
      {
        status: 502,
        codes: ["upstream_task_failed", "timeout", "cancelled"],
        when: "With the wait: the edit job failed or was cancelled (error.code is the job's).",
      },
    ],
  },
};
