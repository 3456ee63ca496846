/**
 * Where admission stands, as gauges: read when asked, at a scrape on the local stack and after each
 * Dispatch run on AWS (a gauge kept in memory would be one process's view).
 */
import type { AdmissionControl } from "../admission/admission-control.ts";
import type { Metrics } from "../ports.ts";

export interface AdmissionGauges {
  reelay_queue_depth: number;
  reelay_queue_oldest_age_seconds: number;
  reelay_slots_in_use: number;
  reelay_slots_limit: number;
}

/** Where admission stands now: the queue (its length and oldest entry) and the slots held and allowed. */
export async function admissionGauges(
  admission: Pick<AdmissionControl, "snapshot" | "store">,
  now: Date,
): Promise<AdmissionGauges> {
  const snapshot = await admission.snapshot();
  let oldest = Number.POSITIVE_INFINITY;
  let depth = 0;
  // The queue sorts by lane first, so its oldest entry is found by reading it all.
  for await (const entry of admission.store.entries()) {
    depth += 1;
    oldest = Math.min(oldest, Date.parse(entry.enqueuedAt));
  }
  return {
    reelay_queue_depth: depth,
    reelay_queue_oldest_age_seconds: depth === 0 ? 0 : Math.max(0, (now.getTime() - oldest) / 1000),
    reelay_slots_in_use: snapshot.held.length,
    reelay_slots_limit: snapshot.limit,
  };
}

/** Sets the admission gauges on `metrics` (AWS: after each Dispatch run). */
export async function recordAdmission(
  metrics: Metrics,
  admission: Pick<AdmissionControl, "snapshot" | "store">,
  now: Date,
): Promise<void> {
  const gauges = await admissionGauges(admission, now);
  for (const [name, value] of Object.entries(gauges) as [keyof AdmissionGauges, number][])
    metrics.set(name, {}, value);
}
