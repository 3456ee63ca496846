/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import {
  FORBIDDEN,
  ID,
  NOT_FOUND,
  pathId,
  UNAUTHORIZED,
  UNAVAILABLE,
} from "../../openapi/examples.ts";
import type { Operation } from "../../openapi/operation.ts";

export const CONTENT_OPERATIONS: Record<string, Operation> = {
  "GET /v1/jobs/{id}/content": {
    summary: "Get a job's video, thumbnail or spritesheet",
    description:
      "A 302 to a presigned GET of one of the succeeded job's stored objects, as OpenAI's videos API serves its variants: `video` (the default; an image job's first image), `thumbnail` (a JPEG poster frame, at most 640 px wide) or `spritesheet` (one JPEG of 10 frames in a 5x2 grid, evenly spaced over the video; the job's `previews.spritesheet` gives the grid). A video that could not be decoded has no thumbnail or spritesheet and carries a `thumbnail_failed` warning.",
    tag: "jobs",
    auth: true,
    parameters: [
      pathId("id", ID),
      {
        name: "variant",
        in: "query",
        required: false,
        description: "video (default), thumbnail or spritesheet.",
        schema: { type: "string", enum: ["video", "thumbnail", "spritesheet"] },
        example: "thumbnail",
      },
    ],
    response: {
      status: 302,
      contentType: "text/plain",
      example: "",
      description: "Location: a presigned GET of the object, valid for the presign TTL.",
      headers: {
        Location: { description: "The presigned URL.", schema: { type: "string" } },
      },
    },
    errors: [
      {
        status: 400,
        codes: ["invalid_query"],
        when: "variant is not video, thumbnail or spritesheet (error.path is `variant`).",
      },
      UNAUTHORIZED,
      FORBIDDEN,
      NOT_FOUND,
      {
        status: 404,
        codes: ["content_not_found"],
        when: "The job is not succeeded, or has no such variant (an image's thumbnail, a video that could not be decoded).",
      },
      UNAVAILABLE,
    ],
  },
};
