/**
 * `?dry_run=true` on the contract's single creates: its query parameter and its answer. The answer
 * is reelay's own body, not the contract's task, so a client of the upstream never sees it unless it
 * asks for it.
 */
import * as z from "zod";
import type { ErrorCase, Parameter } from "./operation.ts";
import { TaskCreatedSchema } from "./responses.ts";

export const CREATE_DRY_RUN: Parameter = {
  name: "dry_run",
  in: "query",
  required: false,
  description:
    "true: run every check of the create (options, fit, the model's rules and lifecycle, upload references) and answer reelay's own `{dry_run, valid, model, requested_model, request, adjustments, warnings, estimate}`, making nothing: no job, no idempotency record, no upstream call, no charge. The key's limits and budgets are not checked nor taken. A bad request is the create's own 400.",
  schema: { type: "boolean" },
  example: "true",
};

export const DRY_RUN_QUERY: ErrorCase = {
  status: 400,
  codes: ["invalid_query"],
  when: "dry_run other than true or false.",
};

export const DryRunSchema = TaskCreatedSchema.pick({
  model: true,
  requested_model: true,
  warnings: true,
  estimate: true,
})
  .extend({
    dry_run: z.literal(true),
    valid: z.literal(true),
    request: z
      .record(z.string(), z.unknown())
      .describe("The request as it would be sent: defaults filled in, fitted."),
    adjustments: TaskCreatedSchema.shape.adjustments.unwrap(),
  })
  .describe("?dry_run=true: what the create would make; nothing was made.");

/** Where a create's 200 names its dry run's answer (document.ts puts DryRunSchema there). */
export const DRY_RUN_REF = { $ref: "#/components/schemas/CreateDryRun" };
