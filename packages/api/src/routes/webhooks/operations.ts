/** The delivery log's routes for the OpenAPI document and /docs (routes/webhooks/handlers.ts). */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all 450 KB).
import * as z from "zod";
import type { ErrorCase, Operation, Parameter } from "../../openapi/operation.ts";

const AttemptSchema = z
  .object({
    at: z.string().describe("When the attempt started (ISO 8601)."),
    latencyMs: z.number().describe("How long the exchange took."),
    status: z.number().optional().describe("The receiver's HTTP status, when it answered."),
    error: z
      .string()
      .optional()
      .describe("Why no answer came (network error, timeout, url_forbidden)."),
    response: z.string().optional().describe("The first 1 KB of the answer, any secret cut out."),
  })
  .describe("One attempt of a delivery.");

const DeliverySchema = z
  .object({
    id: z.string().describe("`dlv_…`"),
    eventId: z.string().describe("The event's id, sent as `webhook-id` on every attempt."),
    eventType: z.string(),
    subscriber: z.string().describe("The subscriber's id (`config:<digest>` for REELAY_WEBHOOKS)."),
    url: z.string().describe("The subscriber's URL without its query."),
    status: z.enum(["pending", "delivered", "dead"]),
    attempts: z.array(AttemptSchema),
    maxAttempts: z.number().describe("After this many failed attempts the delivery is dead."),
    nextAttemptAt: z.string().optional().describe("Pending only."),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .describe("One event to one subscriber, with every attempt.");

export const DeliveryListSchema = z.object({ data: z.array(DeliverySchema) });

const EVENT_ID = "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T.succeeded";
const DELIVERY = {
  id: "dlv_01JD8ZD0000000000000000000",
  eventId: EVENT_ID,
  eventType: "Generation Succeeded",
  subscriber: "config:5d41402abc4b2a76",
  url: "https://hooks.example.com/reelay",
  status: "delivered",
  attempts: [
    { at: "2026-11-22T00:00:41.000Z", latencyMs: 120, status: 503, response: "busy" },
    { at: "2026-11-22T00:00:46.300Z", latencyMs: 95, status: 200, response: "ok" },
  ],
  maxAttempts: 8,
  createdAt: "2026-11-22T00:00:41.000Z",
  updatedAt: "2026-11-22T00:00:46.395Z",
};

const pathParam = (description: string, example: string): Parameter => ({
  name: "id",
  in: "path",
  required: true,
  description,
  schema: { type: "string" },
  example,
});

const query = (name: string, description: string, schema: Record<string, unknown>): Parameter => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});

function listOperation(errors: ErrorCase[]): Operation {
  return {
    summary: "The webhook delivery log (admin key only)",
    description:
      "Newest first: every delivery of an event to a subscriber with every attempt (time, HTTP status or error, latency, the answer's first 1 KB). Pending ones wait for their next attempt on the REELAY_WEBHOOK_SCHEDULE; dead ones spent it.",
    tag: "webhooks",
    auth: true,
    parameters: [
      query("status", "pending, delivered or dead.", {
        type: "string",
        enum: ["pending", "delivered", "dead"],
      }),
      {
        ...query(
          "event",
          "Only this event's deliveries (an event id), or this event type's (e.g. Generation Failed).",
          { type: "string" },
        ),
        example: EVENT_ID,
      },
      query("limit", "At most this many (1 to 100; default 50).", { type: "integer" }),
    ],
    response: {
      status: 200,
      contentType: "application/json",
      schema: DeliveryListSchema,
      example: { data: [DELIVERY] },
      description: "The deliveries.",
    },
    errors: [
      { status: 400, codes: ["invalid_query"], when: "status, event or limit is malformed." },
      ...errors,
    ],
  };
}

function retryOperation(errors: ErrorCase[]): Operation {
  return {
    summary: "Attempt a delivery again now (admin key only)",
    description:
      "The delivery is due at once; a dead one gets exactly one more attempt, a pending one keeps the rest of its schedule. Same webhook-id, fresh signature.",
    tag: "webhooks",
    auth: true,
    parameters: [pathParam("The delivery's id.", DELIVERY.id)],
    response: {
      status: 202,
      contentType: "application/json",
      schema: DeliverySchema,
      example: { ...DELIVERY, status: "pending" },
      description: "The delivery, due now.",
    },
    errors: [
      ...errors,
      { status: 404, codes: ["delivery_not_found"], when: "No delivery has that id." },
      {
        status: 409,
        codes: ["delivery_conflict"],
        when: "An attempt was recorded meanwhile; ask again.",
      },
    ],
  };
}

function replayOperation(errors: ErrorCase[]): Operation {
  const replayed = { ...DELIVERY, id: "dlv_01JD8ZE0000000000000000000", attempts: [] };
  return {
    summary: "Send an event again (admin key only)",
    description:
      "New deliveries of the event, with its original id as webhook-id and a fresh signature, on the full schedule: to every subscriber, or to the one named by `subscriber` in the body. An event never delivered is rebuilt from its terminal job (`<jobId>.<status>`).",
    tag: "webhooks",
    auth: true,
    parameters: [pathParam("The event's id.", EVENT_ID)],
    request: {
      contentType: "application/json",
      schema: { type: "object", properties: { subscriber: { type: "string" } } },
      example: { subscriber: DELIVERY.subscriber },
    },
    response: {
      status: 202,
      contentType: "application/json",
      schema: DeliveryListSchema,
      example: { data: [{ ...replayed, status: "pending" }] },
      description: "The new deliveries.",
    },
    errors: [
      {
        status: 400,
        codes: ["invalid_json", "invalid_request"],
        when: "The body is not JSON or subscriber is not a string.",
      },
      ...errors,
      {
        status: 404,
        codes: ["event_not_found"],
        when: "No delivery of the event and no terminal job it names.",
      },
      {
        status: 409,
        codes: ["no_webhook_subscribers"],
        when: "No subscriber is configured, or none has that id.",
      },
    ],
  };
}

/** The three routes; `shared` are the error cases every admin-only route answers. */
export function webhookOperations(shared: {
  unauthorized: ErrorCase;
  adminOnly: ErrorCase;
}): Record<string, Operation> {
  const errors = [
    shared.unauthorized,
    { ...shared.adminOnly, when: "Only the deployment's own API key." },
  ];
  return {
    "GET /v1/webhooks/deliveries": listOperation(errors),
    "POST /v1/webhooks/deliveries/{id}/retry": retryOperation(errors),
    "POST /v1/events/{id}/replay": replayOperation(errors),
  };
}
