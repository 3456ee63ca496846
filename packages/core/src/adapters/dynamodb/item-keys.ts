/**
 * Every kind of item in the one jobs table, by its keys. `pk` is the table's partition key; items
 * listed on the index `gsi1` carry `gsi1pk` (the listing's partition) and `gsi1sk` (its order:
 * ISO times sort as text, and the id after them keeps equal times apart).
 *
 *   item              pk                                  gsi1pk               gsi1sk
 *   job               <jobId> (vidtsk_, imgtsk_)           JOB                  <createdAt>#<jobId>
 *   batch             <batchId> (bat_)                     BATCH                <createdAt>#<batchId>
 *   batch lines       <batchId>#lines#<n>
 *   due batches       batches-due
 *   admission         admission (the one-account form's account, and the queue's round-robin cursor)
 *   account admission admission#<account name>
 *   queue entry       queue#<jobId>                        QUEUE                <lane>#<priority>#<enqueuedAt>#<jobId>
 *   budget ledger     budget#<owner>#<day | month | all>
 *   API key           apikey#<sha256 of the key>           APIKEY               <createdAt>#<keyId>
 *   key limits        limits#<lane> (a key id, local, drop: its call bucket, waiting count, jobs in flight)
 *   delivery          <deliveryId> (dlv_)                  WEBHOOK#pending      <nextAttemptAt>#<deliveryId>
 *                                                         WEBHOOK#delivered    <updatedAt>#<deliveryId>
 *                                                         WEBHOOK#dead         <updatedAt>#<deliveryId>
 *   subscriber        whsub_<ulid>                         WEBHOOK_SUBSCRIBER   <createdAt>#<subscriberId>
 *   generation stats  stats#<model>#<duration_sec | default>
 *   audit record      <auditId> (aud_)                     AUDIT                <at>#<auditId>
 *   reuse index       fp#<project>#<fingerprint> (the job leading it now, the newest that succeeded)
 *
 * The stack grants each function its items by these keys (stacks/permissions.ts), so a key named
 * here is part of what is deployed: items already on AWS are read by exactly these keys. What an
 * item holds beside its keys is read back through stored-items.ts.
 */
import { PRIORITIES } from "../../domain/admission/settings.ts";
import { type QueueEntry, queueStreamOf } from "../../domain/admission/queue.ts";
import { DEFAULT_ACCOUNT } from "../../domain/upstreams/accounts.ts";
import { BUDGET_LEDGER_PREFIX } from "../../domain/money/ledger.ts";

/** The listing's partitions on gsi1. */
export const JOBS_LIST_PARTITION = "JOB";
export const BATCHES_PARTITION = "BATCH";
export const QUEUE_PARTITION = "QUEUE";
export const KEYS_LIST_PARTITION = "APIKEY";
export const SUBSCRIBERS_PARTITION = "WEBHOOK_SUBSCRIBER";
export const AUDIT_PARTITION = "AUDIT";
/** One partition per delivery status: `WEBHOOK#<status>`. */
export const DELIVERY_PARTITION_PREFIX = "WEBHOOK#";

/** Items of their own kind, by the start of their `pk`. */
export const BATCHES_DUE_KEY = "batches-due";
export const ADMISSION_KEY = "admission";
const ACCOUNT_ADMISSION_PREFIX = "admission#";
export const QUEUE_KEY_PREFIX = "queue#";
/** A budget ledger's item is named by its ledger (domain/money/ledger.ts), which a reservation records. */
export const BUDGET_KEY_PREFIX = BUDGET_LEDGER_PREFIX;
export const API_KEY_KEY_PREFIX = "apikey#";
export const SUBSCRIBER_ID_PREFIX = "whsub";
export const GENERATION_STATS_KEY_PREFIX = "stats#";
export const KEY_LIMITS_KEY_PREFIX = "limits#";
export const REUSE_KEY_PREFIX = "fp#";

/** Sorts after every id character: `<prefix>#~` is past every sort key that starts `<prefix>#`. */
export function pastEvery(prefix: string): string {
  return `${prefix}#~`;
}

/** The listing keys of an item listed by the time it names, then its id. */
function listed(partition: string, at: string, id: string) {
  return { gsi1pk: partition, gsi1sk: `${at}#${id}` };
}

export function jobKeys(job: { id: string; createdAt: string }) {
  return { pk: job.id, ...listed(JOBS_LIST_PARTITION, job.createdAt, job.id) };
}

export function batchKeys(batch: { id: string; createdAt: string }) {
  return { pk: batch.id, ...listed(BATCHES_PARTITION, batch.createdAt, batch.id) };
}

/** The `n`th item of a batch's lines. */
export function batchLinesKey(batchId: string, n: number): string {
  return `${batchId}#lines#${n}`;
}

export function queueEntryKey(jobId: string): string {
  return `${QUEUE_KEY_PREFIX}${jobId}`;
}

/**
 * Entries sort by lane (the API key), then stream (its jobs for no end user, which sort first, then
 * each end user's: domain/admission/queue.ts), then priority, then age: the round-robin reads
 * stream heads.
 */
export function queueSortKey(
  entry: Pick<QueueEntry, "lane" | "user" | "priority" | "enqueuedAt" | "jobId">,
): string {
  return `${queueStreamOf(entry)}#${PRIORITIES.indexOf(entry.priority)}#${entry.enqueuedAt}#${entry.jobId}`;
}

/** Past a lane's entries for no end user (`<lane>#<priority digit>#...`), before its users' streams. */
export function pastOwnStream(lane: string): string {
  return `${lane}#:`;
}

/** Where a lane's entries start in the queue's order. */
export function queueLaneStart(lane: string): string {
  return `${lane}#`;
}

export function queueEntryKeys(entry: Parameters<typeof queueSortKey>[0]) {
  return { pk: queueEntryKey(entry.jobId), gsi1pk: QUEUE_PARTITION, gsi1sk: queueSortKey(entry) };
}

/** A stored API key's item, by the key's hash (the key itself is never written). */
export function apiKeyKey(keyHash: string): string {
  return `${API_KEY_KEY_PREFIX}${keyHash}`;
}

/** A lane's limits item (key-limits-table.ts): a lane is a key id, or `local` / `drop`. */
export function keyLimitsKey(lane: string): string {
  return `${KEY_LIMITS_KEY_PREFIX}${lane}`;
}

export function apiKeyKeys(keyHash: string, record: { id: string; createdAt: string }) {
  return { pk: apiKeyKey(keyHash), ...listed(KEYS_LIST_PARTITION, record.createdAt, record.id) };
}

export function deliveryPartition(status: string): string {
  return `${DELIVERY_PARTITION_PREFIX}${status}`;
}

/** A pending delivery is listed by its next attempt, a finished one by when it ended. */
export function deliveryKeys(delivery: {
  id: string;
  status: string;
  nextAttemptAt?: string | undefined;
  updatedAt: string;
}) {
  const at =
    delivery.status === "pending" ? (delivery.nextAttemptAt as string) : delivery.updatedAt;
  return { pk: delivery.id, ...listed(deliveryPartition(delivery.status), at, delivery.id) };
}

export function isSubscriberId(id: string): boolean {
  return id.startsWith(`${SUBSCRIBER_ID_PREFIX}_`) && id.length <= 40;
}

export function subscriberKeys(subscriber: { id: string; createdAt: string }) {
  return {
    pk: subscriber.id,
    ...listed(SUBSCRIBERS_PARTITION, subscriber.createdAt, subscriber.id),
  };
}

export function auditKeys(record: { id: string; at: string }) {
  return { pk: record.id, ...listed(AUDIT_PARTITION, record.at, record.id) };
}

/** The stats item of one generation group (`<model>#<duration | default>`, domain/polling). */
export function generationStatsItemKey(group: string): string {
  return `${GENERATION_STATS_KEY_PREFIX}${group}`;
}

/**
 * An upstream account's admission item (its slots, learned limit, hold-back and circuit). The
 * one-account form's account keeps the item every earlier version used.
 */
export function accountAdmissionKey(account: string): string {
  return account === DEFAULT_ACCOUNT ? ADMISSION_KEY : `${ACCOUNT_ADMISSION_PREFIX}${account}`;
}

/** A fingerprint's reuse item, within one project (reuse never crosses projects). */
export function reuseKey(scope: string, fingerprint: string): string {
  return `${REUSE_KEY_PREFIX}${scope}#${fingerprint}`;
}
