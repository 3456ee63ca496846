/**
 * The audit trail: every admin and webhook action that succeeds is recorded (core's AuditLog: one
 * DynamoDB item, then an `Audit` event). Which routes are actions, and what each records, is this
 * one table, keyed like the route table (route-scopes.ts); the record is read off the route's own
 * answer, after it, so no route carries audit code and a refused call records nothing. Secrets in
 * an answer (a new key, a signing secret) never reach the record: each entry names the fields it
 * keeps, and core's withoutSecrets drops any secret that slips into one.
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import type { AuditAction, AuditRecord } from "@reelay/core/domain";
import { projectOf, safeUrl } from "@reelay/core/domain";
import type { AuditLog } from "@reelay/core/usecases";
import type { ApiEnv, Caller, ResolvedDeps } from "./api-deps.ts";
import { isAdmin, projectOfCaller } from "./auth.ts";
import { routeKeyOf } from "./route-scopes.ts";
import { auditRoutes } from "./routes/audit/handlers.ts";

type Answer = Record<string, unknown>;

interface Acted {
  caller: Caller;
  /** The route's `{id}`, when it has one. */
  id: string;
  answer: Answer;
  deps: ResolvedDeps;
}

/** What one action records beside its actor; undefined: this call is not one to record. */
type Recorded = Omit<AuditRecord, "id" | "at" | "actor" | "action">;
type Spec = { action: AuditAction; record: (acted: Acted) => Promise<Recorded | undefined> };

function pick(answer: Answer, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.flatMap((f) => (f in answer ? [[f, answer[f]]] : [])));
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;

/** A key's record as answered by /v1/keys: its project is in it. */
function onKey(change: (answer: Answer) => Record<string, unknown>) {
  return async ({ id, answer }: Acted): Promise<Recorded> => {
    const project = text(answer.project);
    return {
      target: text(answer.id) ?? id,
      ...(project === undefined ? {} : { project }),
      change: change(answer),
    };
  };
}

/** A subscriber belongs to its maker's project; the deployment key's own have none. */
function onSubscriber(change: (answer: Answer) => Record<string, unknown>) {
  return async ({ id, answer, caller }: Acted): Promise<Recorded> => {
    const project = text(answer.project) ?? (isAdmin(caller) ? undefined : projectOfCaller(caller));
    return {
      target: text(answer.id) ?? id,
      ...(project === undefined ? {} : { project }),
      change: change(answer),
    };
  };
}

const subscriberChange = (answer: Answer) => ({
  ...(typeof answer.url === "string" ? { url: safeUrl(answer.url) } : {}),
  ...pick(answer, ["events", "description"]),
});

/** Only a retry by a key other than the one that made the job or batch is an action to record. */
async function byAnotherKey(
  caller: Caller,
  found: { source: { apiKeyId?: string; project?: string } } | undefined,
): Promise<{ project?: string } | undefined> {
  if (found === undefined || found.source.apiKeyId === caller.keyId) return undefined;
  const project = projectOf(found.source);
  return project === undefined ? {} : { project };
}

/** The job an event is about (`<jobId>.<status>`), for the project a replay belongs to. */
async function eventProject(deps: ResolvedDeps, eventId: string): Promise<{ project?: string }> {
  const job = await deps.jobs.get(eventId.split(".")[0] as string);
  const project = job === undefined ? undefined : projectOf(job.source);
  return project === undefined ? {} : { project };
}

export const AUDITED_ROUTES: Readonly<Record<string, Spec>> = {
  "POST /v1/keys": {
    action: "key.created",
    record: onKey((a) => pick(a, ["name", "scopes", "project", "budget", "limits", "expires_at"])),
  },
  "DELETE /v1/keys/{id}": {
    action: "key.revoked",
    record: onKey((a) => pick(a, ["revokedAt"])),
  },
  "PUT /v1/keys/{id}/budget": {
    action: "key.budget_changed",
    record: onKey((a) => {
      const { used: _used, ...budget } = (a.budget ?? {}) as Answer;
      return { budget };
    }),
  },
  "DELETE /v1/keys/{id}/budget": {
    action: "key.budget_changed",
    record: onKey(() => ({ budget: null })),
  },
  "PUT /v1/keys/{id}/limits": {
    action: "key.limits_changed",
    record: onKey((a) => pick(a, ["limits"])),
  },
  "DELETE /v1/keys/{id}/limits": {
    action: "key.limits_changed",
    record: onKey(() => ({ limits: null })),
  },
  "POST /v1/keys/{id}/webhook-secret": {
    action: "key.webhook_secret_rotated",
    record: async ({ id, deps }) => {
      const project = (await deps.keys.list()).find((key) => key.id === id)?.project;
      return { target: id, ...(project === undefined ? {} : { project }), change: {} };
    },
  },
  "POST /v1/webhooks": { action: "subscriber.added", record: onSubscriber(subscriberChange) },
  "DELETE /v1/webhooks/{id}": {
    action: "subscriber.removed",
    record: onSubscriber(subscriberChange),
  },
  "POST /v1/webhooks/{id}/rotate": {
    action: "subscriber.rotated",
    record: onSubscriber(() => ({})),
  },
  "POST /v1/events/{id}/replay": {
    action: "event.replayed",
    record: async ({ id, answer, deps }) => ({
      target: id,
      ...(await eventProject(deps, id)),
      change: {
        deliveries: ((answer.data ?? []) as Answer[]).map((d) => ({
          id: d.id,
          subscriber: d.subscriber,
        })),
      },
    }),
  },
  "POST /v1/webhooks/deliveries/{id}/retry": {
    action: "delivery.retried",
    record: async ({ id, answer, deps }) => ({
      target: id,
      ...(typeof answer.eventId === "string" ? await eventProject(deps, answer.eventId) : {}),
      change: pick(answer, ["eventId", "subscriber"]),
    }),
  },
  "POST /v1/jobs/{id}/retry": {
    action: "job.retried",
    record: async ({ id, answer, caller, deps }) => {
      const owner = await byAnotherKey(caller, await deps.jobs.get(id));
      return owner === undefined ? undefined : { target: id, ...owner, change: { job: answer.id } };
    },
  },
  "POST /v1/batches/{id}/retry": {
    action: "batch.retried",
    record: async ({ id, answer, caller, deps }) => {
      const owner = await byAnotherKey(caller, await deps.batches.get(id));
      return owner === undefined
        ? undefined
        : { target: id, ...owner, change: pick(answer, ["total", "counts"]) };
    },
  },
};

function actorOf(caller: Caller): AuditRecord["actor"] {
  return isAdmin(caller)
    ? { key_id: caller.keyId }
    : { key_id: caller.keyId, project: projectOfCaller(caller) };
}

async function answerOf(c: Context<ApiEnv>): Promise<Answer> {
  try {
    const body: unknown = await c.res.clone().json();
    return body !== null && typeof body === "object" ? (body as Answer) : {};
  } catch {
    return {};
  }
}

/**
 * Records each successful action after its route answered. A record that cannot be stored fails
 * the call (500): an action the log does not hold must not look like it went through quietly.
 */
function auditTrail(deps: ResolvedDeps, audit: AuditLog): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    await next();
    if (c.res.status < 200 || c.res.status > 299) return;
    const key = routeKeyOf(c);
    const spec = key === undefined ? undefined : AUDITED_ROUTES[key];
    if (spec === undefined) return;
    const caller = c.get("caller");
    const acted = { caller, id: c.req.param("id") ?? "", answer: await answerOf(c), deps };
    const recorded = await spec.record(acted);
    if (recorded === undefined) return;
    await audit.record({ action: spec.action, actor: actorOf(caller), ...recorded });
  };
}

/** Every /v1 action recorded (after auth, scopes and ownership), and GET /v1/audit. */
export function mountAudit(app: Hono<ApiEnv>, deps: ResolvedDeps): void {
  app.use("/v1/*", auditTrail(deps, deps.audit));
  app.route("/v1/audit", auditRoutes(deps.audit));
}
