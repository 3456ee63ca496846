/** The audited routes (audit-trail.ts collects them): what each key change records. */
import { type Answer, type AuditRows, onAnswered, pick, text } from "../../audit-rows.ts";

/** A key's record as answered by /v1/keys: its project is in it. */
const onKey = (change: (answer: Answer) => Record<string, unknown>) =>
  onAnswered(({ answer }) => text(answer.project), change);

export const KEYS_AUDIT: AuditRows = {
  "POST /v1/keys": {
    action: "key.created",
    record: onKey((a) =>
      pick(a, ["name", "scopes", "project", "budget", "limits", "expires_at", "user_limits"]),
    ),
  },
  "DELETE /v1/keys/{id}": {
    action: "key.revoked",
    record: onKey((a) => pick(a, ["revokedAt"])),
  },
  "PUT /v1/keys/{id}/budget": {
    action: "key.budget_changed",
    record: onKey((a) => {
      const { used: _used, ...budget } = (a.budget ?? {}) as Answer;
      return { budget };
    }),
  },
  "DELETE /v1/keys/{id}/budget": {
    action: "key.budget_changed",
    record: onKey(() => ({ budget: null })),
  },
  "PUT /v1/keys/{id}/limits": {
    action: "key.limits_changed",
    record: onKey((a) => pick(a, ["limits"])),
  },
  "DELETE /v1/keys/{id}/limits": {
    action: "key.limits_changed",
    record: onKey(() => ({ limits: null })),
  },
  "POST /v1/keys/{id}/webhook-secret": {
    action: "key.webhook_secret_rotated",
    record: async ({ id, deps }) => {
      const project = (await deps.keys.list()).find((key) => key.id === id)?.project;
      return { target: id, ...(project === undefined ? {} : { project }), change: {} };
    },
  },
};
