/**
 * Items read back from the jobs table, checked where they come in: a reader drops the item's keys
 * and bookkeeping attributes and checks the fields its record type rests on, so a malformed item (a
 * hand edit, a write by another version) fails here, naming the item and the field, not later as an
 * undefined inside a step. Fields a schema does not name pass through as stored: the records'
 * optional fields are many, and their readers already allow for their absence.
 */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all of it).
import * as z from "zod";
import type { AuditRecord } from "../../domain/audit/record.ts";
import type { Batch } from "../../domain/batches/types.ts";
import { ReelayError, shownInput } from "../../domain/errors.ts";
import { JOB_STATUSES, type Job } from "../../domain/jobs/types.ts";
import { DELIVERY_STATUSES, type Delivery } from "../../domain/webhooks/delivery.ts";
import type { ManagedSubscriber } from "../../domain/webhooks/managed-subscriber.ts";

/** An item without its keys and the named bookkeeping attributes: the record it stores. */
function withoutKeys(item: Record<string, unknown>, also: readonly string[]) {
  const { pk: _pk, gsi1pk: _p, gsi1sk: _s, ...rest } = item;
  for (const name of also) delete rest[name];
  return rest;
}

const text = z.string();
const fields = z.record(z.string(), z.unknown());
/** metadata: string pairs; absent on items made before it (and on those given none). */
const metadata = z.record(z.string(), z.string()).optional();

/**
 * A reader of one kind of record: `shape` names the fields every reader of T relies on, `also` the
 * bookkeeping attributes that are not part of the record. A malformed item is an internal_error
 * naming the item's id and the field (never a value: an item may hold a secret).
 */
export function storedItem<T>(kind: string, shape: z.ZodRawShape, also: readonly string[] = []) {
  const schema = z.looseObject(shape);
  return (item: Record<string, unknown>): T => {
    const parsed = schema.safeParse(withoutKeys(item, also));
    if (parsed.success) return parsed.data as T;
    const issue = parsed.error.issues[0];
    const path = issue?.path.join(".") ?? "";
    const id = typeof item.id === "string" ? ` ${shownInput(item.id)}` : "";
    throw new ReelayError(
      "internal_error",
      `The stored ${kind} item${id} is malformed at ${path === "" ? "its root" : path}: ${issue?.message ?? "unreadable"}.`,
      { path },
    );
  };
}

export const readJob = storedItem<Job>("job", {
  id: text,
  kind: z.enum(["video", "image"]),
  status: z.enum(JOB_STATUSES),
  model: text,
  requestedModel: text.optional(),
  request: fields,
  source: fields,
  createdAt: text,
  updatedAt: text,
  history: z.array(z.unknown()),
  adjustments: z.array(z.looseObject({ path: text })).optional(),
  metadata,
});

const count = z.number();

export const readBatch = storedItem<Batch>("batch", {
  id: text,
  total: count,
  jobs: count,
  rejected: count,
  ended: count,
  source: fields,
  createdAt: text,
  updatedAt: text,
  metadata,
});

// The action stays a string: a record written by a newer version may name an action this one lacks.
export const readAuditRecord = storedItem<AuditRecord>("audit", {
  id: text,
  at: text,
  action: text,
  actor: z.looseObject({ key_id: text }),
  target: text,
  change: fields,
});

export const readSubscriber = storedItem<ManagedSubscriber>(
  "webhook subscriber",
  {
    id: text,
    url: text,
    ownerKeyId: text,
    createdAt: text,
    secrets: z.array(z.looseObject({ secret: text })),
  },
  ["type"],
);

/** A delivery's `lease` is the sweep's hold on it (ClaimedDelivery), not part of the record. */
export const readDelivery = storedItem<Delivery>(
  "webhook delivery",
  {
    id: text,
    eventId: text,
    eventType: text,
    subscriber: text,
    url: text,
    body: text,
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.array(z.unknown()),
    maxAttempts: count,
    createdAt: text,
    updatedAt: text,
  },
  ["lease", "type"],
);
