/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import { UsageReportSchema } from "../../openapi/responses.ts";
import { BUDGET, UNAUTHORIZED, UNAVAILABLE } from "../../openapi/examples.ts";
import type { Operation } from "../../openapi/operation.ts";

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

export const USAGE_OPERATIONS: Record<string, Operation> = {
  "GET /v1/usage": {
    summary: "Usage, cost and failures over a time range",
    description:
      "The jobs created in [from, to) grouped by model, key, day, batch, upstream account or end user: counts by status, units and cost of what was charged (`unknown` counts at its estimate, as budgets do), failures by class and how many of them were charged; then each budget in force with what its period has used. A stored key sees its own jobs and budget; the admin key sees every job, the deployment's budget and every key's. At most 100,000 jobs per report.",
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
        "model (default), key, day, batch or account (the upstream account: a job that fell back counts each failed try's cost where it ran and the rest where it ended; a job with no account under `default`) or user (the end user, `user` / X-Reelay-User; jobs made for none under the group null; the groups sum to the totals).",
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
};
