/** A stored API key as reelay shows and keeps it (never the key itself: only its hash is stored). */
import type { OnSunset } from "../catalog/resolve-request.ts";
import type { Budget } from "../money/budget-schema.ts";
import type { UserLimits } from "./end-users.ts";
import type { KeyLimits } from "./key-limits.ts";
import type { Scope } from "./scopes.ts";

export interface ApiKeyRecord {
  /** Public id, recorded on jobs as source.apiKeyId. */
  id: string;
  name: string;
  /** The first characters of the key, to tell keys apart in a listing. */
  hint: string;
  createdAt: string;
  revokedAt?: string;
  /** What the key may spend per period (domain/money/ledger.ts); absent = no limit. */
  budget?: Budget;
  /** What the key may do (scopes.ts); a key stored before scopes has LEGACY_SCOPES. */
  scopes: Scope[];
  /** Its project (projects.ts); a key made without one is alone in one named by its id. */
  project: string;
  /** Its own limits (limits.ts), each over REELAY_KEY_LIMITS's; absent = the defaults. */
  limits?: KeyLimits;
  /** Limits for each of its end users (end-users.ts); absent = none. */
  user_limits?: UserLimits;
  /** After this time the key is refused with 401 key_expired (lifecycle.ts). */
  expires_at?: string;
  /** When a call last used it, to the minute (LAST_USED_EVERY_MS). */
  last_used_at?: string;
  /** A create on a model past its sunset: `successor` runs the successor; absent, refused `model_sunset`. */
  on_sunset?: OnSunset;
}

/** What a new key is made with beside its name. */
export interface NewApiKey {
  name: string;
  budget?: Budget;
  scopes?: readonly Scope[];
  project?: string;
  limits?: KeyLimits;
  userLimits?: UserLimits;
  expiresAt?: string;
  onSunset?: OnSunset;
}

export interface CreatedApiKey {
  record: ApiKeyRecord;
  /** The only time the key is available in clear. */
  key: string;
  /** The `whsec_` secret that signs its jobs' own webhooks (webhook_url): shown this once. */
  webhookSecret: string;
}
