/**
 * Where admission stands, as gauges: read when asked, at a scrape on the local stack and after each
 * Dispatch run on AWS (a gauge kept in memory would be one process's view). The totals carry no
 * label; each account's slots and circuit carry `account`.
 */
import type { AdmissionControl } from "../admission/admission-control.ts";
import type { Metrics } from "../ports.ts";

export interface AdmissionGauges {
  reelay_queue_depth: number;
  reelay_queue_oldest_age_seconds: number;
  reelay_slots_in_use: number;
  reelay_slots_limit: number;
}

/** One account's gauges, labelled with its name. */
interface AccountGauges {
  account: string;
  reelay_slots_in_use: number;
  reelay_slots_limit: number;
  reelay_circuit_open: number;
}

/** The totals, and each account's own (one, `default`, without a pool). */
export interface AdmissionReading extends AdmissionGauges {
  accounts: AccountGauges[];
}

type Admission = Pick<AdmissionControl, "snapshot" | "store">;

/** Where admission stands now: the queue, the slots held and allowed, and each account's. */
export async function admissionReading(admission: Admission, now: Date): Promise<AdmissionReading> {
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
    accounts: snapshot.accounts.map((account) => ({
      account: account.name,
      reelay_slots_in_use: account.held,
      reelay_slots_limit: account.limit,
      reelay_circuit_open: account.circuit === "closed" ? 0 : 1,
    })),
  };
}

/** Where admission stands now: the queue (its length and oldest entry) and the slots held and allowed. */
export async function admissionGauges(admission: Admission, now: Date): Promise<AdmissionGauges> {
  const { accounts: _each, ...totals } = await admissionReading(admission, now);
  return totals;
}

/**
 * Sets the admission gauges on `metrics` (AWS: after each Dispatch run); in a pool each account's
 * too, with its label. One account's would only repeat the totals, and CloudWatch would fold them
 * into the totals' own series (every EMF line also publishes its metrics without dimensions).
 */
export async function recordAdmission(
  metrics: Metrics,
  admission: Admission,
  now: Date,
): Promise<void> {
  const { accounts, ...totals } = await admissionReading(admission, now);
  for (const [name, value] of Object.entries(totals) as [keyof AdmissionGauges, number][])
    metrics.set(name, {}, value);
  if (accounts.length < 2) return;
  for (const { account, ...gauges } of accounts)
    for (const [name, value] of Object.entries(gauges) as [keyof typeof gauges, number][])
      metrics.set(name, { account }, value);
}
