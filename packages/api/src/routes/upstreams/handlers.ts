/**
 * GET /v1/upstreams (admin key only): the pool as an operator sees it, one entry per account (one,
 * `default`, without REELAY_UPSTREAMS): the models it serves, its weight, its circuit, its limit and
 * where that comes from, its rate, the upstream tasks it has in flight and its share of all in
 * flight, its 429s and failed creates over the recent window, and its last error. No key and no URL
 * appear: an account is known by its name.
 */
import { Hono } from "hono";
import type { AdmissionControl } from "@reelay/core/usecases";
import { forbidden, isAdmin } from "../../auth.ts";
import type { ApiEnv } from "../../api-deps.ts";

/** This account's part of the upstream tasks in flight now, 0..1 (0 when none is in flight). */
function shareOf(held: number, total: number): number {
  return total === 0 ? 0 : Math.round((held / total) * 1000) / 1000;
}

export function upstreamRoutes(admission: AdmissionControl): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.get("/", async (c) => {
    if (!isAdmin(c.get("caller")))
      throw forbidden(
        "Only the deployment's own API key sees the upstream accounts, which serve every key.",
      );
    const [snapshot, problems] = await Promise.all([admission.snapshot(), admission.problems()]);
    const inFlight = snapshot.held.length;
    // The snapshot lists the accounts in their configured order, as `accounts` does.
    const data = snapshot.accounts.map((now, index) => {
      const account = admission.accounts[index];
      const recent = problems.find((p) => p.name === now.name)?.problems;
      return {
        name: now.name,
        models: account?.models ?? null,
        weight: account?.weight ?? 1,
        state: now.circuit,
        open_until: now.circuitOpenUntil,
        limit: now.limit,
        limit_source: now.limitSource,
        rate: now.ratePerS,
        held_back_until: now.heldBackUntil,
        in_flight: now.held,
        queue_share: shareOf(now.held, inFlight),
        recent: {
          window_s: recent?.windowS ?? 0,
          rate_limited: recent?.rateLimited ?? 0,
          errors: recent?.errors ?? 0,
        },
        last_error: recent?.last ?? null,
      };
    });
    return c.json({
      object: "list",
      routing: admission.routing,
      in_flight: inFlight,
      queued: snapshot.queued,
      data,
    });
  });
  return routes;
}
