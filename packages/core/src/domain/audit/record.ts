/**
 * The audit log's record: who (the actor's key id and project) did what (`action`) to what
 * (`target`, and the `project` it belongs to) when, and what changed. Records are written once and
 * never changed or deleted. No secret is ever in one: `change` passes through withoutSecrets, which
 * drops every field that names a secret and every value shaped like a key or a signing secret.
 */
import { monotonicFactory } from "ulid";
import { idPattern } from "../ids.ts";
import { EVENT_SOURCE } from "../events/types.ts";

export const AUDIT_ACTIONS = [
  "key.created",
  "key.revoked",
  "key.budget_changed",
  "key.limits_changed",
  "key.webhook_secret_rotated",
  "subscriber.added",
  "subscriber.removed",
  "subscriber.rotated",
  "event.replayed",
  "delivery.retried",
  "job.retried",
  "batch.retried",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ID_PREFIX = "aud";
export const AUDIT_ID = idPattern([AUDIT_ID_PREFIX]);

/** The bus's detail-type of an audit record (docs/api.md: the event `Audit`). */
export const AUDIT_DETAIL_TYPE = "Audit";

export interface AuditRecord {
  /** `aud_<ulid>`: sorts by time. */
  id: string;
  at: string;
  action: AuditAction;
  /** Who did it: the key's id (`local` for the deployment's own key) and its project. */
  actor: { key_id: string; project?: string };
  /** The project the target belongs to; absent for what spans the deployment (a delivery). */
  project?: string;
  /** The id of what was acted on: a key, subscriber, event, delivery, job or batch. */
  target: string;
  /** What changed, without any secret. */
  change: Record<string, unknown>;
}

export type AuditEntry = Omit<AuditRecord, "id" | "at">;

/** Ids made in one millisecond still sort in the order they were made (the log's order). */
const ulid = monotonicFactory();

/** Field names whose values are secrets; a field named so is never recorded. */
const SECRET_FIELD = /(^key$|secret|token|password|authorization|api_?key)/i;
/** Values shaped like reelay's keys and signing secrets, wherever they appear. */
const SECRET_VALUE = /^(rk_|whsec_)/;

/** `value` with every secret-named field and every secret-shaped string taken out. */
export function withoutSecrets(value: unknown): unknown {
  if (typeof value === "string") return SECRET_VALUE.test(value) ? "[redacted]" : value;
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name]) => !SECRET_FIELD.test(name))
      .map(([name, inner]) => [name, withoutSecrets(inner)]),
  );
}

export function newAuditRecord(entry: AuditEntry, now: Date): AuditRecord {
  return {
    id: `${AUDIT_ID_PREFIX}_${ulid(now.getTime())}`,
    at: now.toISOString(),
    action: entry.action,
    actor: entry.actor,
    ...(entry.project === undefined ? {} : { project: entry.project }),
    target: entry.target,
    change: withoutSecrets(entry.change) as Record<string, unknown>,
  };
}

/** An audit record on the bus (EventBridge on AWS, events.jsonl locally). */
export interface AuditEvent {
  id: string;
  time: string;
  source: typeof EVENT_SOURCE;
  "detail-type": typeof AUDIT_DETAIL_TYPE;
  detail: AuditRecord;
}

export function buildAuditEvent(record: AuditRecord): AuditEvent {
  return {
    id: record.id,
    time: record.at,
    source: EVENT_SOURCE,
    "detail-type": AUDIT_DETAIL_TYPE,
    detail: record,
  };
}
