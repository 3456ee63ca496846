import { projectOf } from "../keys/projects.ts";
import { randomBytes } from "node:crypto";
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all 450 KB).
import * as z from "zod";
import { DETAIL_TYPES, BATCH_COMPLETED } from "../events/types.ts";
import { onFirstUse } from "../on-first-use.ts";
/** How long a rotated-out secret still signs. */
const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export interface StoredSecret {
  secret: string;
  /** Rotated out: still signs until then. */
  expiresAt?: string;
}

/** A subscriber as shown: never its secrets. */
export interface SubscriberRecord {
  id: string;
  url: string;
  /** Detail-types it receives; absent = every event. */
  events?: string[];
  description: string;
  /** The key that made it (`local` for the deployment's own). */
  ownerKeyId: string;
  /** Its project: every key of it manages it, and it receives that project's job events. */
  project?: string;
  createdAt: string;
}

/** The project a subscriber belongs to; one made before projects, its key's own. */
export function subscriberProject(subscriber: Pick<SubscriberRecord, "ownerKeyId" | "project">) {
  return projectOf({
    apiKeyId: subscriber.ownerKeyId,
    ...(subscriber.project === undefined ? {} : { project: subscriber.project }),
  });
}

export interface ManagedSubscriber extends SubscriberRecord {
  secrets: StoredSecret[];
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/** What a subscriber shows: everything but its secrets. */
export function subscriberRecord(subscriber: ManagedSubscriber): SubscriberRecord {
  const { secrets: _secrets, ...record } = subscriber;
  return record;
}

/** The secrets that sign now: the current one and any rotated out less than 24 h ago. */
export function liveSecrets(secrets: readonly StoredSecret[], now: Date): string[] {
  return secrets
    .filter((s) => s.expiresAt === undefined || Date.parse(s.expiresAt) > now.getTime())
    .map((s) => s.secret);
}

export function signingSecrets(subscriber: ManagedSubscriber, now: Date): string[] {
  return liveSecrets(subscriber.secrets, now);
}

/** A new current secret, the old current one kept signing for 24 h beside it, older ones dropped. */
export function rotatedSecrets(
  secrets: readonly StoredSecret[],
  now: Date,
): { secret: string; secrets: StoredSecret[] } {
  const secret = newWebhookSecret();
  const until = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
  const current = secrets.find((s) => s.expiresAt === undefined);
  return {
    secret,
    secrets: [
      { secret },
      ...(current === undefined ? [] : [{ secret: current.secret, expiresAt: until }]),
    ],
  };
}

/** The event types a subscriber may ask for. */
export const WEBHOOK_EVENT_TYPES = [...Object.values(DETAIL_TYPES), BATCH_COMPLETED];

/**
 * POST /v1/webhooks: `{url, events?, description?}`; the URL is checked by url-guard.ts after.
 * Built at its first use, as the request schemas are (on-first-use.ts).
 */
export const subscriberInputSchema = onFirstUse(() =>
  z.object({
    url: z.string().min(1).max(2000),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).optional(),
    description: z.string().max(200).optional(),
  }),
);
