/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import {
  BATCH_ID,
  BATCH_NOT_FOUND,
  ID,
  NOT_FOUND,
  pathId,
  UNAUTHORIZED,
} from "../../openapi/examples.ts";
import type { Operation } from "../../openapi/operation.ts";

export const FOLLOW_OPERATIONS: Record<string, Operation> = {
  "GET /v1/jobs/{id}/events": {
    summary: "Follow one job (Server-Sent Events)",
    description:
      "`event: status` for each status the job passes (the last one carries the whole job view, with links or error), `event: progress` between them (polls, queue position); ends after the terminal status. Send the last `id` as `Last-Event-ID` to resume: nothing twice, no status skipped. On AWS each response ends after its first frames (API Gateway buffers), with `retry: 1000`, so an EventSource reconnects.",
    tag: "events",
    auth: true,
    parameters: [pathId("id", ID)],
    response: {
      status: 200,
      contentType: "text/event-stream",
      example:
        'id: 1-1732700000000\nevent: status\ndata: {"id":"vidtsk_...","status":"queued","at":"2026-11-27T10:00:00.000Z"}\n\n',
      description: "The job's stream.",
    },
    errors: [UNAUTHORIZED, NOT_FOUND],
  },
  "GET /v1/batches/{id}/events": {
    summary: "Follow one batch (Server-Sent Events)",
    description:
      "`event: progress` with the batch's view (`total`, `counts`, which always sum to the total) whenever its counts change, and `event: completed` with the final view, then the stream ends. `Last-Event-ID` resumes.",
    tag: "events",
    auth: true,
    parameters: [pathId("id", BATCH_ID)],
    response: {
      status: 200,
      contentType: "text/event-stream",
      example:
        'id: 2.1.0.0.0.0.0\nevent: progress\ndata: {"id":"bat_...","total":3,"counts":{"queued":2,"running":1}}\n\n',
      description: "The batch's stream.",
    },
    errors: [UNAUTHORIZED, BATCH_NOT_FOUND],
  },
};
