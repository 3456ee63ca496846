/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all 450 KB).
import * as z from "zod";
import { MAX_UPLOAD_BYTES } from "@reelay/core/domain";
import { LATER, pathId, UNAUTHORIZED } from "../../openapi/examples.ts";
import type { ErrorCase, Operation } from "../../openapi/operation.ts";

const UPLOAD_ID = "upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAS";

const UploadSchema = z
  .object({
    id: z.string().describe("`upl_<ulid>`."),
    url: z
      .string()
      .describe(
        "`upload://upl_<ulid>`: give it wherever a material URL goes (frame_images, input_references, image_config.reference_images).",
      ),
    status: z
      .enum(["ready", "pending"])
      .describe(
        "`ready`: usable. `pending`: made for a presigned PUT and not completed yet (POST /v1/uploads/{id}/complete); a create naming it is refused with `upload_pending`.",
      ),
    sha256: z
      .string()
      .optional()
      .describe("Hex sha256 of the bytes (a pending upload's only when it was declared)."),
    content_type: z
      .string()
      .describe(
        "Read from the bytes: image/png, image/jpeg, image/webp, image/gif or video/mp4 (a pending upload's as declared).",
      ),
    size: z.number().int().describe("Bytes."),
    created_at: z.string(),
    expires_at: z
      .string()
      .describe("When it is removed (REELAY_UPLOAD_RETENTION_DAYS after it was made, default 7)."),
    put: z
      .object({
        url: z.string().describe("A presigned S3 PUT URL (a bearer credential: keep it private)."),
        method: z.literal("PUT"),
        headers: z
          .record(z.string(), z.string())
          .describe(
            "Send these as they are; the declared length is signed too, so the body must be exactly `size` bytes.",
          ),
        expires_at: z.string().describe("When the URL stops working (15 minutes on)."),
      })
      .optional()
      .describe("Only in the answer to a JSON POST /v1/uploads: where to PUT the bytes."),
  })
  .describe("Material stored in reelay's bucket under uploads/.");

const DeclaredSchema = z
  .object({
    content_type: z
      .enum(["image/png", "image/jpeg", "image/webp", "image/gif", "video/mp4"])
      .describe("What the bytes are: complete refuses bytes that are anything else."),
    size: z.number().int().min(1).describe("The file's length in bytes, signed into the PUT."),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional()
      .describe(
        "Hex sha256 of the bytes: signed into the PUT (S3 checks it) and checked at complete.",
      ),
    name: z.string().optional().describe("Taken and not kept: reelay goes by the bytes."),
  })
  .describe("A file to PUT to a presigned URL, as declared.");

const NOT_FOUND: ErrorCase = {
  status: 404,
  codes: ["upload_not_found"],
  when: "No upload has that id, it expired, or it is another project's.",
};

const EXAMPLE = {
  id: UPLOAD_ID,
  url: `upload://${UPLOAD_ID}`,
  status: "ready",
  sha256: "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
  content_type: "image/png",
  size: 204800,
  created_at: "2026-11-22T00:00:00.000Z",
  expires_at: LATER,
};

/** What the routes of one upload share: its id in the path, and the upload as the answer. */
function onOneUpload(
  answered: string,
): Pick<Operation, "tag" | "auth" | "parameters" | "response"> {
  return {
    tag: "jobs",
    auth: true,
    parameters: [pathId("id", UPLOAD_ID)],
    response: {
      status: 200,
      contentType: "application/json",
      schema: UploadSchema,
      example: EXAMPLE,
      description: answered,
    },
  };
}

export const UPLOADS_OPERATIONS: Record<string, Operation> = {
  "POST /v1/uploads": {
    summary: "Upload material",
    description: `multipart/form-data with the material as the file field \`file\`, or, for a file larger than a request body may be (API Gateway takes 10 MB), JSON \`{content_type, size, sha256?, name?}\`: the answer is then a \`pending\` upload with a presigned \`put\` (15 minutes) to PUT the bytes to, and POST /v1/uploads/{id}/complete checks them and makes the upload usable. Either way the material is a PNG, JPEG, WEBP or GIF image (at most ${MAX_UPLOAD_BYTES.image} bytes) or an MP4 video (at most ${MAX_UPLOAD_BYTES.video} bytes), recognised by its bytes, not its name. Answers an \`upload://upl_<ulid>\` reference usable by the key's project wherever a material URL goes; the upstream is given a link signed for as long as the job may need it, and the job keeps the reference.`,
    tag: "jobs",
    auth: true,
    request: {
      contentType: "multipart/form-data",
      schema: {
        type: "object",
        required: ["file"],
        properties: {
          file: {
            type: "string",
            contentMediaType: "application/octet-stream",
            description: "The image or video.",
          },
        },
      },
      example: { file: "(binary)" },
      alternatives: [
        {
          contentType: "application/json",
          schema: DeclaredSchema,
          example: { content_type: "video/mp4", size: 73400320, name: "clip.mp4" },
        },
      ],
    },
    response: {
      status: 201,
      contentType: "application/json",
      schema: UploadSchema,
      example: EXAMPLE,
      description:
        "The upload was stored (multipart); or, for JSON, the pending upload with its `put` (`status` `pending`).",
    },
    errors: [
      {
        status: 400,
        codes: [
          "invalid_content_type",
          "invalid_multipart",
          "invalid_request",
          "invalid_upload",
          "upload_too_large",
        ],
        when: "Not multipart, no `file`, a file that is not an image or MP4 video, or one over the size limit; `path` is `file`. With JSON: a `content_type` that is not a taken image or video, or a `size` over its limit, at that field. Nothing is stored.",
      },
      UNAUTHORIZED,
      { status: 413, codes: ["payload_too_large"], when: "A JSON declaration over 16 KiB." },
    ],
  },
  "POST /v1/uploads/{id}/complete": {
    summary: "Complete an upload",
    description:
      "After the bytes were PUT to the presigned URL a JSON POST /v1/uploads answered: reads them once as they stream (their sha256 and what they are, by image-size and mp4box, as a multipart upload's), and when they are what was declared makes the upload usable. Bytes that are not are refused, and the staged bytes deleted: nothing of the upload is left. Completing an upload already completed answers it again.",
    ...onOneUpload("The upload, ready."),
    errors: [
      {
        status: 400,
        codes: ["invalid_upload", "upload_too_large"],
        when: "The bytes are not the declared type or length (`path` `file`), or not the declared `sha256` (`path` `sha256`). The upload is gone.",
      },
      UNAUTHORIZED,
      NOT_FOUND,
      {
        status: 409,
        codes: ["upload_pending"],
        when: "No bytes were PUT yet: PUT them, then complete again.",
      },
    ],
  },
  "GET /v1/uploads/{id}": {
    summary: "Get an upload",
    description:
      "An upload of the key's project until it expires: `ready`, or `pending` while a presigned PUT's upload is not completed.",
    ...onOneUpload("The upload."),
    errors: [UNAUTHORIZED, NOT_FOUND],
  },
};
