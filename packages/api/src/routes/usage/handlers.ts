/**
 * GET /v1/usage?from=&to=&group_by=model|key|day|batch|account: jobs, units, cost and failures by class
 * over the jobs created in [from, to), with each budget in force and what its period has used. A
 * stored key sees its own jobs and budget; the admin key sees every job, the deployment's budget
 * and every key's.
 */
import { Hono } from "hono";
import type { BudgetLedgerPort } from "@reelay/core/usecases";
import {
  type Budget,
  DEPLOYMENT_OWNER,
  ledgerOf,
  fromMicros,
  USAGE_GROUPS,
  type UsageGroup,
  usageReport,
  ReelayError,
} from "@reelay/core/domain";
import { isAdmin, ownerFilter } from "../../auth.ts";
import type { ApiEnv, Caller, ResolvedDeps } from "../../api-deps.ts";

/** The most jobs one report counts (a Lambda answers within API Gateway's 30 s). */
const MAX_REPORT_JOBS = 100_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function badQuery(path: string, message: string): ReelayError {
  return new ReelayError("invalid_request", message, { status: 400, path });
}

/** A day (`2026-11-01`, its midnight UTC) or an ISO time with its zone, as a full ISO string. */
function readTime(name: string, raw: string | undefined, fallback: Date): string {
  if (raw === undefined || raw === "") return fallback.toISOString();
  const at = DATE.test(raw) ? Date.parse(`${raw}T00:00:00Z`) : Date.parse(raw);
  if (Number.isNaN(at) || !(DATE.test(raw) || /(Z|[+-]\d{2}:\d{2})$/.test(raw)))
    throw badQuery(name, `${name} must be a day (2026-11-01) or an ISO time with its zone.`);
  return new Date(at).toISOString();
}

function readGroup(raw: string | undefined): UsageGroup {
  if (raw === undefined || raw === "") return "model";
  if ((USAGE_GROUPS as readonly string[]).includes(raw)) return raw as UsageGroup;
  throw badQuery("group_by", `group_by must be one of ${USAGE_GROUPS.join(", ")}.`);
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
  routes.get("/", async (c) => {
    const caller = c.get("caller");
    const now = deps.now();
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const from = readTime("from", c.req.query("from"), monthStart);
    const to = readTime("to", c.req.query("to"), new Date(now.getTime() + 1));
    if (from >= to) throw badQuery("to", "to must be later than from.");
    const groupBy = readGroup(c.req.query("group_by"));
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
  });
  return routes;
}
