/** The API's dependencies from the pipeline's wiring: one assembly for Lambda and the local stack. */
import type { ExecutionStopper } from "@reelay/core/usecases";
import { pricesOf, type Wiring } from "@reelay/core/wiring";
import { keyStoreAuthenticator } from "./auth.ts";
import type { ApiDeps } from "./api-deps.ts";

/** What a platform adds to its wiring for the API: how jobs start and stop, and the admin key. */
export interface PlatformApi extends Partial<ApiDeps> {
  starter: ApiDeps["starter"];
  stopper: ExecutionStopper;
  webhooks: ApiDeps["webhooks"];
  /** The deployment's own key: it sees every job and manages the stored keys. */
  adminKey: string;
}

/** The API's dependencies from the pipeline's wiring, the same on both platforms. */
export function apiDepsFrom(wiring: Wiring, platform: PlatformApi): ApiDeps {
  const { adminKey, ...rest } = platform;
  const { jobs, objects, events, admission, batches } = wiring.pipeline;
  return {
    jobs,
    objects,
    events,
    admission,
    batches: wiring.batches,
    batchTracker: batches,
    keys: wiring.keys,
    keyLimits: wiring.keyLimits,
    audit: wiring.audit,
    authenticate: keyStoreAuthenticator(adminKey, wiring.keys),
    ...pricesOf(wiring),
    catalog: wiring.catalog,
    ...(wiring.retentionDays === undefined ? {} : { retentionDays: wiring.retentionDays }),
    outputBuckets: wiring.outputBuckets,
    uploadRetentionDays: wiring.uploadRetentionDays,
    budgets: wiring.pipeline.budgets,
    metrics: wiring.pipeline.metrics,
    ...rest,
  };
}
