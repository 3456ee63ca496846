/**
 * Which account a queued job is admitted to, among those that could take it now (they serve its
 * model, their circuit lets a create through, a slot is free and no hold-back is running):
 *
 *   balanced  the fewest tasks in flight for its weight (weight 2 carries twice the tasks of 1);
 *             ties go to the most free slots, then the list's order
 *   ordered   the first in the list; the others take the overflow
 *   cheapest  the lowest price for this request (an account's own prices, else REELAY_PRICES);
 *             unpriced accounts last, ties in the list's order
 */
import type { Routing } from "./accounts.ts";

export interface Candidate {
  name: string;
  /** Place in REELAY_UPSTREAMS. */
  order: number;
  held: number;
  limit: number;
  weight: number;
  /** This request's cost there, in millionths; undefined = not priced. */
  priceMicros?: number;
}

export function chooseAccount(
  candidates: readonly Candidate[],
  routing: Routing,
): Candidate | undefined {
  const open = candidates.filter((c) => c.held < c.limit);
  return [...open].sort((a, b) => compare(a, b, routing) || a.order - b.order)[0];
}

function compare(a: Candidate, b: Candidate, routing: Routing): number {
  if (routing === "ordered") return 0;
  if (routing === "cheapest") {
    const price = (c: Candidate) => c.priceMicros ?? Number.POSITIVE_INFINITY;
    return price(a) - price(b);
  }
  return a.held / a.weight - b.held / b.weight || b.limit - b.held - (a.limit - a.held);
}
