/** The OpenAPI entries of money's routes: usage reports, key budgets and batch retries. */
import type { Operation } from "./operation.ts";
import { ApiKeySchema, BatchSchema, UsageReportSchema } from "./responses.ts";
import {
  ADMIN_ONLY,
  BATCH_EXAMPLE,
  BATCH_ID,
  BATCH_NOT_FOUND,
  KEY_ID,
  KEY_LIMITS_SHAPE,
  KEY_NOT_FOUND,
  KEY_RECORD,
  pathId,
  UNAUTHORIZED,
  UNAVAILABLE,
} from "./operations.ts";

const BUDGET = { amount: 100, unit: "currency", period: "month" };
const ROW = {
  jobs: 120,
  succeeded: 112,
  failed: 6,
  cancelled: 2,
  in_progress: 0,
  units: { video_seconds: 560, images: 0 },
  cost: 14.3,
  unpriced: 0,
  failures: { content_policy: 2, upstream_transient: 3, budget_exceeded: 1 },
  charged_failures: 2,
  charged: 110,
  reused: 8,
  saved: 1.6,
};
const query = (name: string, description: string, example: string) => ({
  name,
  in: "query" as const,
  required: false,
  description,
  schema: { type: "string" },
  example,
});

export const MONEY_OPERATIONS: Record<string, Operation> = {
  "GET /v1/usage": {
    summary: "Usage, cost and failures over a time range",
    description:
      "The jobs created in [from, to) grouped by model, key, day, batch or upstream account: counts by status, units and cost of what was charged (`unknown` counts at its estimate, as budgets do), failures by class and how many of them were charged; then each budget in force with what its period has used. A stored key sees its own jobs and budget; the admin key sees every job, the deployment's budget and every key's. At most 100,000 jobs per report.",
    tag: "usage",
    auth: true,
    parameters: [
      query(
        "from",
        "A day (its midnight UTC) or an ISO time with its zone; default the 1st of this month.",
        "2026-11-01",
      ),
      query("to", "Exclusive; default now.", "2026-12-01"),
      query(
        "group_by",
        "model (default), key, day, batch or account (the upstream account: a job that fell back counts each failed try's cost where it ran and the rest where it ended; a job with no account under `default`).",
        "model",
      ),
    ],
    response: {
      status: 200,
      contentType: "application/json",
      schema: UsageReportSchema,
      example: {
        from: "2026-11-01T00:00:00.000Z",
        to: "2026-12-01T00:00:00.000Z",
        group_by: "model",
        currency: "USD",
        totals: ROW,
        groups: [{ group: "gamma-3.1", ...ROW }],
        budgets: [{ budget: "deployment", id: null, ...BUDGET, used: 14.3, remaining: 85.7 }],
      },
      description: "The report.",
    },
    errors: [
      {
        status: 400,
        codes: ["invalid_request", "usage_range_too_large"],
        when: "from, to or group_by is malformed (error.path names it), to is not after from, or the range holds more than 100,000 jobs.",
      },
      UNAUTHORIZED,
      UNAVAILABLE,
    ],
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
        properties: {
          amount: { type: "number", exclusiveMinimum: 0 },
          unit: { type: "string", enum: ["currency", "units"], default: "currency" },
          period: { type: "string", enum: ["day", "month", "total"], default: "month" },
        },
        required: ["amount"],
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
  "POST /v1/batches/{id}/retry": {
    summary: "Retry a completed batch's retryable failures",
    description:
      "A new batch (`retry_of` = this one) with one line per job that failed with a retryable class, on its original line number; each new job is linked with the one it retries (`retryOf`, `retriedBy`). content_policy and invalid_request failures are left as they are (budget_exceeded ones are retried: raise the budget first), and so is a job already retried on its own. The same retry again answers the same batch.",
    tag: "batches",
    auth: true,
    parameters: [pathId("id", BATCH_ID)],
    response: {
      status: 200,
      contentType: "application/json",
      schema: BatchSchema,
      example: { ...BATCH_EXAMPLE, id: "bat_01JD8ZD...", total: 3, retry_of: BATCH_ID },
      description: "The retry batch.",
    },
    errors: [
      UNAUTHORIZED,
      BATCH_NOT_FOUND,
      {
        status: 409,
        codes: ["not_retryable"],
        when: "The batch is still running, or none of its failures is one a retry can help.",
      },
    ],
  },
};
