/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all 450 KB).
import * as z from "zod";
import { MAX_UPLOAD_BYTES } from "@reelay/core/domain";
import { LATER, pathId, UNAUTHORIZED } from "../../openapi/examples.ts";
import type { Operation } from "../../openapi/operation.ts";

const UPLOAD_ID = "upl_01JD5Z8K4Q2W7R3T9Y6V1A0PAS";

const UploadSchema = z
  .object({
    id: z.string().describe("`upl_<ulid>`."),
    url: z
      .string()
      .describe(
        "`upload://upl_<ulid>`: give it wherever a material URL goes (frame_images, input_references, image_config.reference_images).",
      ),
    sha256: z.string().describe("Hex sha256 of the bytes."),
    content_type: z
      .string()
      .describe("Read from the bytes: image/png, image/jpeg, image/webp, image/gif or video/mp4."),
    size: z.number().int().describe("Bytes."),
    created_at: z.string(),
    expires_at: z
      .string()
      .describe("When it is removed (REELAY_UPLOAD_RETENTION_DAYS after it was made, default 7)."),
  })
  .describe("Material stored in reelay's bucket under uploads/.");

const EXAMPLE = {
  id: UPLOAD_ID,
  url: `upload://${UPLOAD_ID}`,
  sha256: "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
  content_type: "image/png",
  size: 204800,
  created_at: "2026-11-22T00:00:00.000Z",
  expires_at: LATER,
};

export const UPLOADS_OPERATIONS: Record<string, Operation> = {
  "POST /v1/uploads": {
    summary: "Upload material",
    description: `multipart/form-data with the material as the file field \`file\`: a PNG, JPEG, WEBP or GIF image (at most ${MAX_UPLOAD_BYTES.image} bytes) or an MP4 video (at most ${MAX_UPLOAD_BYTES.video} bytes), recognised by its bytes, not its name. Answers an \`upload://upl_<ulid>\` reference usable by the key's project wherever a material URL goes; the upstream is given a link signed for as long as the job may need it, and the job keeps the reference.`,
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
    },
    response: {
      status: 201,
      contentType: "application/json",
      schema: UploadSchema,
      example: EXAMPLE,
      description: "The upload was stored.",
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
        when: "Not multipart, no `file`, a file that is not an image or MP4 video, or one over the size limit; `path` is `file`. Nothing is stored.",
      },
      UNAUTHORIZED,
    ],
  },
  "GET /v1/uploads/{id}": {
    summary: "Get an upload",
    description: "An upload of the key's project, until it expires.",
    tag: "jobs",
    auth: true,
    parameters: [pathId("id", UPLOAD_ID)],
    response: {
      status: 200,
      contentType: "application/json",
      schema: UploadSchema,
      example: EXAMPLE,
      description: "The upload.",
    },
    errors: [
      UNAUTHORIZED,
      {
        status: 404,
        codes: ["upload_not_found"],
        when: "No upload has that id, it expired, or it is another project's.",
      },
    ],
  },
};
