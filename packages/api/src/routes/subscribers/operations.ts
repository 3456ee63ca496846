/** The managed subscribers' routes for the OpenAPI document and /docs (routes/subscribers/handlers.ts). */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all 450 KB).
import * as z from "zod";
import { subscriberInputSchema } from "@reelay/core/domain";
import type { ErrorCase, Operation } from "../../openapi/operation.ts";

const SubscriberSchema = z
  .object({
    id: z.string().describe("`whsub_…`"),
    url: z.string(),
    events: z.array(z.string()).optional().describe("The event types it receives; absent = all."),
    description: z.string(),
    ownerKeyId: z.string().describe("The key that made it."),
    project: z
      .string()
      .optional()
      .describe(
        "Its project: every key of it manages it, and it receives the project's jobs' events.",
      ),
    createdAt: z.string(),
  })
  .describe("A managed webhook subscriber; its secret is shown only when made or rotated.");

const WithSecretSchema = SubscriberSchema.extend({
  secret: z.string().describe("`whsec_…`: shown this once; verify signatures with it."),
});

const SUBSCRIBER = {
  id: "whsub_01JD8ZF0000000000000000000",
  url: "https://hooks.example.com/reelay",
  events: ["Generation Succeeded", "Generation Failed"],
  description: "CI",
  ownerKeyId: "key_01JD8ZB...",
  createdAt: "2026-11-22T00:00:00.000Z",
};
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const NOT_FOUND: ErrorCase = {
  status: 404,
  codes: ["webhook_subscriber_not_found"],
  when: "No subscriber of this key has that id.",
};
const ID = {
  name: "id",
  in: "path" as const,
  required: true,
  description: "The subscriber's id.",
  schema: { type: "string" },
  example: SUBSCRIBER.id,
};

function json(status: number, schema: z.ZodType, example: unknown, description: string) {
  return { status, contentType: "application/json", schema, example, description };
}

function createOperation(errors: ErrorCase[]): Operation {
  return {
    summary: "Add a webhook subscriber",
    description:
      "The URL gets the events of this key's jobs (the deployment's own key: every event), signed per Standard Webhooks with the secret answered here once. The URL is checked at once: https only on AWS, and never a loopback (on AWS), private or metadata address, by name or by what it resolves to.",
    tag: "webhooks",
    auth: true,
    request: {
      contentType: "application/json",
      schema: subscriberInputSchema(),
      example: { url: SUBSCRIBER.url, events: SUBSCRIBER.events, description: "CI" },
    },
    response: json(
      201,
      WithSecretSchema,
      { ...SUBSCRIBER, secret: SECRET },
      "The subscriber, with its secret.",
    ),
    errors: [
      {
        status: 400,
        codes: [
          "invalid_json",
          "invalid_request",
          "webhook_url_scheme",
          "webhook_url_loopback",
          "webhook_url_private",
          "webhook_url_metadata",
        ],
        when: "The body is malformed, or the URL is one reelay does not deliver to (the code says why).",
      },
      ...errors,
    ],
  };
}

export function subscriberOperations(unauthorized: ErrorCase): Record<string, Operation> {
  const errors = [unauthorized];
  return {
    "POST /v1/webhooks": createOperation(errors),
    "GET /v1/webhooks": {
      summary: "List this key's webhook subscribers",
      description: "The subscribers this key made, without their secrets.",
      tag: "webhooks",
      auth: true,
      response: json(
        200,
        z.object({ data: z.array(SubscriberSchema) }),
        { data: [SUBSCRIBER] },
        "The subscribers.",
      ),
      errors,
    },
    "DELETE /v1/webhooks/{id}": {
      summary: "Remove a webhook subscriber",
      description: "It gets no new deliveries; its pending ones end dead at their next attempt.",
      tag: "webhooks",
      auth: true,
      parameters: [ID],
      response: json(200, SubscriberSchema, SUBSCRIBER, "The removed subscriber."),
      errors: [...errors, NOT_FOUND],
    },
    "POST /v1/webhooks/{id}/rotate": {
      summary: "Rotate a webhook subscriber's secret",
      description:
        "A new secret, answered once. For 24 hours every delivery carries a signature with the old secret beside the new one, so a receiver can switch at its own pace.",
      tag: "webhooks",
      auth: true,
      parameters: [ID],
      response: json(
        200,
        WithSecretSchema,
        { ...SUBSCRIBER, secret: SECRET },
        "The subscriber, with its new secret.",
      ),
      errors: [...errors, NOT_FOUND],
    },
  };
}
