/**
 * GET /v1/usage?from=&to=&group_by=model|key|day|batch|account|user: jobs, units, cost and failures by class
 * over the jobs created in [from, to), with each budget in force and what its period has used. A
 * stored key sees its own jobs and budget; the admin key sees every job, the deployment's budget
 * and every key's.
 */
import { Hono } from "hono";
import * as z from "zod";
import type { BudgetLedgerPort } from "@reelay/core/usecases";
import {
  type Budget,
  DEPLOYMENT_OWNER,
  ledgerOf,
  fromMicros,
  USAGE_GROUPS,
  type UsageGroup,
  usageReport,
} from "@reelay/core/domain";
import { isAdmin, ownerFilter } from "../../auth.ts";
import type { ApiEnv, Caller, ResolvedDeps } from "../../api-deps.ts";
import { validQuery } from "../../query.ts";

/** The most jobs one report counts (a Lambda answers within API Gateway's 30 s). */
const MAX_REPORT_JOBS = 100_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A day (`2026-11-01`, its midnight UTC) or an ISO time with its zone, as a full ISO string; "" is absent. */
function timeParam(name: "from" | "to") {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === "") return undefined;
      const at = DATE.test(raw) ? Date.parse(`${raw}T00:00:00Z`) : Date.parse(raw);
      if (!Number.isNaN(at) && (DATE.test(raw) || /(Z|[+-]\d{2}:\d{2})$/.test(raw)))
        return new Date(at).toISOString();
      ctx.issues.push({
        code: "custom",
        message: `${name} must be a day (2026-11-01) or an ISO time with its zone.`,
        input: raw,
      });
      return z.NEVER;
    });
}

const groupParam = z
  .string()
  .refine(
    (raw) => raw === "" || (USAGE_GROUPS as readonly string[]).includes(raw),
    `group_by must be one of ${USAGE_GROUPS.join(", ")}.`,
  )
  .optional()
  .transform(
    (raw): UsageGroup => (raw === undefined || raw === "" ? "model" : (raw as UsageGroup)),
  );

/**
 * GET /v1/usage's query: the range first (each end, then the pair; by default from the month's
 * start to now), then group_by, so a bad query is refused for what is checked first. `at`: the
 * time the report is for.
 */
function usageQuery(now: () => Date) {
  const range = z
    .object({ from: timeParam("from"), to: timeParam("to") })
    .transform((query, ctx) => {
      const at = now();
      const from =
        query.from ?? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)).toISOString();
      const to = query.to ?? new Date(at.getTime() + 1).toISOString();
      if (from < to) return { from, to, at };
      ctx.issues.push({
        code: "custom",
        message: "to must be later than from.",
        path: ["to"],
        input: query,
      });
      return z.NEVER;
    });
  return range.and(z.object({ group_by: groupParam }));
}

interface BudgetStatus extends Budget {
  budget: "key" | "deployment";
  id: string | null;
  used: number;
  remaining: number;
}

async function statusOf(
  ledger: BudgetLedgerPort,
  owner: { budget: "key" | "deployment"; id: string | null },
  budget: Budget,
  now: Date,
): Promise<BudgetStatus> {
  const used = await ledger.used(ledgerOf(owner.id ?? DEPLOYMENT_OWNER, budget, now));
  const remaining = Math.max(0, Math.round(budget.amount * 1_000_000) - used);
  return { ...owner, ...budget, used: fromMicros(used), remaining: fromMicros(remaining) };
}

async function budgetsFor(deps: ResolvedDeps, caller: Caller, now: Date): Promise<BudgetStatus[]> {
  const ledger = deps.budgets;
  if (!isAdmin(caller))
    return caller.budget === undefined
      ? []
      : [await statusOf(ledger, { budget: "key", id: caller.keyId }, caller.budget, now)];
  const statuses: Promise<BudgetStatus>[] = [];
  if (ledger.deployment !== undefined)
    statuses.push(statusOf(ledger, { budget: "deployment", id: null }, ledger.deployment, now));
  for (const key of await deps.keys.list())
    if (key.budget !== undefined && key.revokedAt === undefined)
      statuses.push(statusOf(ledger, { budget: "key", id: key.id }, key.budget, now));
  return Promise.all(statuses);
}

export function usageRoutes(deps: ResolvedDeps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.get(
    "/",
    validQuery(
      usageQuery(() => deps.now()),
      "invalid_request",
    ),
    async (c) => {
      const caller = c.get("caller");
      const { from, to, at: now, group_by: groupBy } = c.req.valid("query");
      const jobs = deps.jobs.createdBetween({
        from,
        to,
        max: MAX_REPORT_JOBS,
        ...ownerFilter(caller),
      });
      const report = await usageReport(jobs, groupBy, deps.prices !== undefined);
      return c.json({
        from,
        to,
        group_by: groupBy,
        currency: deps.prices?.currency ?? null,
        ...report,
        budgets: await budgetsFor(deps, caller, now),
      });
    },
  );
  return routes;
}
