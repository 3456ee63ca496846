/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import { ApiKeyListSchema, ApiKeySchema } from "../../openapi/responses.ts";
import {
  ADMIN_ONLY,
  BUDGET,
  KEY_ID,
  KEY_LIMITS_SHAPE,
  KEY_NOT_FOUND,
  KEY_RECORD,
  LATER,
  UNAUTHORIZED,
} from "../../openapi/examples.ts";
import type { Operation } from "../../openapi/operation.ts";

/** A budget's fields, as a key's `budget`, PUT /v1/keys/{id}/budget and `user_limits.budget` take them. */
const BUDGET_SHAPE = {
  properties: {
    amount: { type: "number", exclusiveMinimum: 0 },
    unit: { type: "string", enum: ["currency", "units"], default: "currency" },
    period: { type: "string", enum: ["day", "month", "total"], default: "month" },
  },
  required: ["amount"],
};

export const KEYS_OPERATIONS: Record<string, Operation> = {
  "POST /v1/keys": {
    summary: "Create an API key (admin key only)",
    description:
      "Stores the key hashed; the key itself is in this answer only. Each key sees only its own jobs.",
    tag: "keys",
    auth: true,
    request: {
      contentType: "application/json",
      schema: {
        type: "object",
        properties: {
          name: { type: "string", maxLength: 100 },
          scopes: {
            type: "array",
            items: { type: "string", enum: ["read", "write", "webhooks", "admin"] },
            minItems: 1,
            default: ["read", "write"],
            description:
              "What the key may do: read (get and list), write (create, cancel, retry), webhooks (the subscribers), admin (keys, budgets, operations). A route outside them is 403 scope_missing.",
          },
          project: {
            type: "string",
            pattern: "^[a-z0-9][a-z0-9-]{0,62}$",
            description:
              "The key's project: every key of it sees the project's jobs, batches, usage and webhooks; another project's are 404. Absent: a new project of its own (named by the key's id).",
          },
          limits: {
            type: "object",
            description:
              "The key's own limits, each over REELAY_KEY_LIMITS's; null = no limit. rate: calls per second (past it and burst, 429 rate_limited); max_queued: its jobs waiting (past it, 429 queue_full, nothing made); max_in_flight: its jobs holding upstream slots (the rest wait).",
            ...KEY_LIMITS_SHAPE,
          },
          user_limits: {
            type: "object",
            description:
              "Limits for each of the key's end users (`user` / X-Reelay-User), held per (key, user) as `limits` are per key; null or absent = none. A user past one gets the key's codes (429 rate_limited or queue_full, 402 budget_exceeded) naming the end user's limit while the key's other users are served; max_in_flight: that user's jobs holding upstream slots (the rest of its jobs wait); budget: what each user may spend per period, as the key's budget.",
            properties: {
              ...KEY_LIMITS_SHAPE.properties,
              budget: {
                type: ["object", "null"],
                ...BUDGET_SHAPE,
              },
            },
            additionalProperties: false,
          },
          expires_at: {
            type: "string",
            format: "date-time",
            description:
              "When the key stops working (an ISO time with its zone, in the future); after it, 401 key_expired. Absent: until revoked.",
          },
          on_sunset: {
            type: "string",
            enum: ["refuse", "successor"],
            default: "refuse",
            description:
              "A create on a model past its sunset_at (REELAY_MODEL_LIFECYCLE): `refuse` answers 400 model_sunset naming the successor; `successor` runs the successor instead, the job keeping the name asked for in requested_model and a model_substituted warning.",
          },
          budget: {
            type: "object",
            description:
              "What the key may spend per period: money under the price table, or units (video seconds, images). Every create reserves its estimate; past it, 402 budget_exceeded.",
            ...BUDGET_SHAPE,
          },
        },
      },
      example: {
        name: "ci",
        scopes: ["read", "write"],
        budget: { amount: 50, unit: "currency", period: "month" },
      },
    },
    response: {
      status: 201,
      contentType: "application/json",
      schema: ApiKeySchema,
      example: { ...KEY_RECORD, key: "rl_live_3q2...full key, shown once" },
      description: "The new key and its record.",
    },
    errors: [
      {
        status: 400,
        codes: ["invalid_json", "invalid_request", "unknown_field"],
        when: "The body is not JSON, name is not a string of at most 100 characters (error.path = name), scopes names no known scope, expires_at is not an ISO time ahead (error.path = expires_at), on_sunset is not refuse or successor (error.path = on_sunset), budget, limits or user_limits is malformed (error.path = budget.amount, limits.rate, user_limits.max_in_flight, ...), or a field is not one of these (unknown_field; no key is made).",
      },
      UNAUTHORIZED,
      ADMIN_ONLY,
    ],
  },
  "GET /v1/keys": {
    summary: "List API keys (admin key only)",
    description:
      "Every stored key's record (id, name, hint, createdAt, revokedAt, budget with this period's `used`), never the key.",
    tag: "keys",
    auth: true,
    response: {
      status: 200,
      contentType: "application/json",
      schema: ApiKeyListSchema,
      example: { data: [KEY_RECORD] },
      description: "The keys.",
    },
    errors: [UNAUTHORIZED, ADMIN_ONLY],
  },
  "DELETE /v1/keys/{id}": {
    summary: "Revoke an API key (admin key only)",
    description: "The key stops working at once; revoking twice keeps the first revokedAt.",
    tag: "keys",
    auth: true,
    parameters: [KEY_ID],
    response: {
      status: 200,
      contentType: "application/json",
      schema: ApiKeySchema,
      example: { ...KEY_RECORD, revokedAt: LATER },
      description: "The revoked key's record.",
    },
    errors: [UNAUTHORIZED, ADMIN_ONLY, KEY_NOT_FOUND],
  },
  "POST /v1/keys/{id}/webhook-secret": {
    summary: "Rotate an API key's webhook secret (admin key only)",
    description:
      "A new `whsec_` secret for the key's jobs' own webhooks (X-Reelay-Webhook, webhook_url), answered this once. The old one keeps signing beside it for 24 h (every delivery then carries both signatures), so receivers can switch at their own pace.",
    tag: "keys",
    auth: true,
    parameters: [KEY_ID],
    response: {
      status: 200,
      contentType: "application/json",
      example: { id: "key_01JD8ZB...", webhook_secret: "whsec_...shown once" },
      description: "The key's id and its new webhook secret.",
    },
    errors: [UNAUTHORIZED, ADMIN_ONLY, KEY_NOT_FOUND],
  },
  "PUT /v1/keys/{id}/budget": {
    summary: "Set an API key's budget (admin key only)",
    description:
      "Replaces the key's budget; what its current period has used stays, so a raised budget lets the key go on at once. Jobs of its batches still queued reserve under the new budget when admitted.",
    tag: "keys",
    auth: true,
    parameters: [KEY_ID],
    request: {
      contentType: "application/json",
      schema: {
        type: "object",
        ...BUDGET_SHAPE,
      },
      example: BUDGET,
    },
    response: {
      status: 200,
      contentType: "application/json",
      schema: ApiKeySchema,
      example: { ...KEY_RECORD, budget: { ...BUDGET, used: 14.3 } },
      description: "The key with its budget and this period's use.",
    },
    errors: [
      {
        status: 400,
        codes: ["invalid_json", "invalid_request"],
        when: "The body is not a budget (error.path = budget.amount, ...).",
      },
      UNAUTHORIZED,
      ADMIN_ONLY,
      KEY_NOT_FOUND,
    ],
  },
  "DELETE /v1/keys/{id}/budget": {
    summary: "Remove an API key's budget (admin key only)",
    description:
      "The key spends without a limit of its own (the deployment's budget still applies).",
    tag: "keys",
    auth: true,
    parameters: [KEY_ID],
    response: {
      status: 200,
      contentType: "application/json",
      schema: ApiKeySchema,
      example: KEY_RECORD,
      description: "The key without a budget.",
    },
    errors: [UNAUTHORIZED, ADMIN_ONLY, KEY_NOT_FOUND],
  },
  "PUT /v1/keys/{id}/limits": {
    summary: "Set an API key's limits (admin key only)",
    description:
      "Replaces the key's own limits (`rate`, `burst`, `max_queued`, `max_in_flight`; each a number, or null for none whatever REELAY_KEY_LIMITS says; a field left out takes REELAY_KEY_LIMITS's). They hold from the key's next call; jobs already waiting or running stay. Recorded in the audit log.",
    tag: "keys",
    auth: true,
    parameters: [KEY_ID],
    request: {
      contentType: "application/json",
      schema: {
        type: "object",
        ...KEY_LIMITS_SHAPE,
      },
      example: { rate: 5, burst: 10, max_queued: 100 },
    },
    response: {
      status: 200,
      contentType: "application/json",
      schema: ApiKeySchema,
      example: KEY_RECORD,
      description: "The key with its limits as they now hold for it.",
    },
    errors: [
      {
        status: 400,
        codes: ["invalid_json", "invalid_request", "unknown_field"],
        when: "The body is not an object of limits (error.path = limits.rate, ...).",
      },
      UNAUTHORIZED,
      ADMIN_ONLY,
      KEY_NOT_FOUND,
    ],
  },
  "DELETE /v1/keys/{id}/limits": {
    summary: "Remove an API key's own limits (admin key only)",
    description: "REELAY_KEY_LIMITS's defaults hold for the key again (none when it is unset).",
    tag: "keys",
    auth: true,
    parameters: [KEY_ID],
    response: {
      status: 200,
      contentType: "application/json",
      schema: ApiKeySchema,
      example: KEY_RECORD,
      description: "The key with the default limits.",
    },
    errors: [UNAUTHORIZED, ADMIN_ONLY, KEY_NOT_FOUND],
  },
};
