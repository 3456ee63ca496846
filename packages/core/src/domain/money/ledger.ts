/**
 * A budget's ledger: one per owner (a key's id, or the deployment) and period. Its name is what a
 * reservation records and what the ledger's store keeps it under, so it never changes form.
 */
import type { Budget } from "./budget-schema.ts";

/** The first part of every ledger's name (the stores' key prefix, which the IAM grants name too). */
export const BUDGET_LEDGER_PREFIX = "budget#";

/** The owner of the deployment's own budget (REELAY_BUDGET), beside the keys' ids. */
export const DEPLOYMENT_OWNER = "deployment";

/** The period a time falls in: `2026-01-31` (day), `2026-01` (month) or `all` (total). */
function periodOf(period: Budget["period"], now: Date): string {
  const iso = now.toISOString();
  return period === "day" ? iso.slice(0, 10) : period === "month" ? iso.slice(0, 7) : "all";
}

/** The ledger of `owner`'s `budget` for the period `now` falls in. */
export function ledgerOf(owner: string, budget: Budget, now: Date): string {
  return `${BUDGET_LEDGER_PREFIX}${owner}#${periodOf(budget.period, now)}`;
}
