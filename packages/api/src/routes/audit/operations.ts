/** The OpenAPI entry of GET /v1/audit: the append-only log of admin and webhook actions. */
import * as z from "zod";
import { AUDIT_ACTIONS } from "@reelay/core/domain";
import type { Operation, Parameter } from "../../openapi/operation.ts";
import { UNAUTHORIZED } from "../../openapi/examples.ts";

const AuditRecordSchema = z.object({
  id: z.string().describe("`aud_<ulid>`: sorts by time."),
  at: z.string().describe("When the action was done (ISO, UTC)."),
  action: z.enum(AUDIT_ACTIONS),
  actor: z
    .object({
      key_id: z.string().describe("The acting key's id; `local` for the deployment's own key."),
      project: z.string().optional().describe("The acting key's project."),
    })
    .describe("Who did it."),
  project: z
    .string()
    .optional()
    .describe("The project of what was acted on; absent for what spans the deployment."),
  target: z.string().describe("The id of what was acted on (key, subscriber, event, job, ...)."),
  change: z.record(z.string(), z.unknown()).describe("What changed; never a key or a secret."),
});

const AuditPageSchema = z.object({
  data: z.array(AuditRecordSchema),
  next_cursor: z
    .string()
    .nullable()
    .describe("Pass as `cursor` for the next page; null at the end."),
});

function query(
  name: string,
  description: string,
  schema: Record<string, unknown>,
  example?: string,
): Parameter {
  return {
    name,
    in: "query",
    required: false,
    description,
    schema,
    ...(example === undefined ? {} : { example }),
  };
}

export const AUDIT_OPERATIONS: Record<string, Operation> = {
  "GET /v1/audit": {
    summary: "The audit log (admin scope)",
    description:
      "Every admin and webhook action, newest first: keys created, revoked, their budgets and webhook secrets changed; subscribers added, removed, rotated; replays; delivery retries; job and batch retries by a key other than their maker's. Each with its actor, project, time, action, target and change. A stored key with the admin scope sees its project's records; the deployment's own key sees all. Records are never changed or deleted: the log has no other method.",
    tag: "keys",
    auth: true,
    parameters: [
      query(
        "action",
        "Only this action.",
        { type: "string", enum: [...AUDIT_ACTIONS] },
        "key.created",
      ),
      query("from", "Records at or after this ISO time.", { type: "string", format: "date-time" }),
      query("to", "Records before this ISO time.", { type: "string", format: "date-time" }),
      query(
        "limit",
        "Page size, 1 to 100 (default 50).",
        { type: "integer", minimum: 1, maximum: 100 },
        "20",
      ),
      query("cursor", "next_cursor of the previous page.", { type: "string" }),
    ],
    response: {
      status: 200,
      contentType: "application/json",
      schema: AuditPageSchema,
      example: {
        data: [
          {
            id: "aud_01JD8ZC...",
            at: "2026-11-27T10:00:00.000Z",
            action: "key.created",
            actor: { key_id: "local" },
            project: "video-team",
            target: "key_01JD8ZB...",
            change: { name: "ci", scopes: ["read", "write"], project: "video-team" },
          },
        ],
        next_cursor: null,
      },
      description: "A page of audit records.",
    },
    errors: [
      {
        status: 400,
        codes: ["invalid_query", "invalid_cursor"],
        when: "action is not a known action, from or to is not an ISO time, the limit is out of range, or the cursor is not one this service returned.",
      },
      UNAUTHORIZED,
      { status: 403, codes: ["scope_missing"], when: "The key lacks the admin scope." },
    ],
  },
};
