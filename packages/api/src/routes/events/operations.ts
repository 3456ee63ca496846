/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import { UNAUTHORIZED } from "../../openapi/examples.ts";
import type { Operation } from "../../openapi/operation.ts";

export const EVENTS_OPERATIONS: Record<string, Operation> = {
  "GET /v1/events": {
    summary: "Stream terminal events (local stack)",
    description:
      "Server-Sent Events: `event: <detail-type>` (Generation Succeeded / Failed / Cancelled), `data: <event JSON>`, `id: <event id>`; a comment heartbeat keeps the stream open.",
    tag: "events",
    auth: true,
    response: {
      status: 200,
      contentType: "text/event-stream",
      example:
        'event: Generation Succeeded\ndata: {"detail-type":"Generation Succeeded","detail":{"jobId":"vidtsk_..."}}\nid: 01JD...\n\n',
      description: "The event stream.",
    },
    errors: [UNAUTHORIZED],
  },
};
