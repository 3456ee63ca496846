/**
 * API keys, managed with the admin key only: create (the key is shown once), list, set or remove a
 * budget, revoke.
 */
import { Hono } from "hono";
import type { ApiKeyStorePort, BudgetLedgerPort, KeyLimitsPort } from "@reelay/core/usecases";
import {
  type ApiKeyRecord,
  type Budget,
  ledgerOf,
  parseBudget,
  parseExpiresAt,
  parseProject,
  parseScopes,
  parseKeyLimits,
  parseUserLimits,
  limitsView,
  type UserLimits,
  userLimitsView,
  fromMicros,
  type Scope,
  ReelayError,
  ON_SUNSET_CHOICES,
  type OnSunset,
} from "@reelay/core/domain";
import { forbidden, isAdmin } from "../../auth.ts";
import { jsonBodyLimit, parseJson, refuseUnknownFields } from "../../body.ts";
import type { ApiEnv } from "../../api-deps.ts";

const MAX_NAME = 100;
/** What POST /v1/keys reads; anything else is refused (body.ts). */
const KEY_FIELDS = [
  "name",
  "budget",
  "scopes",
  "project",
  "limits",
  "expires_at",
  "on_sunset",
  "user_limits",
] as const;

function readName(body: unknown): string {
  const name =
    body === null || typeof body !== "object" ? undefined : (body as { name?: unknown }).name;
  if (name === undefined) return "";
  if (typeof name !== "string" || name.length > MAX_NAME) {
    throw new ReelayError(
      "invalid_request",
      `name must be a string of at most ${MAX_NAME} characters.`,
      { status: 400, path: "name" },
    );
  }
  return name;
}

/** `budget` of POST /v1/keys: {amount, unit?: currency|units, period?: day|month|total}. */
function readBudget(body: unknown): Budget | undefined {
  const raw =
    body === null || typeof body !== "object" ? undefined : (body as { budget?: unknown }).budget;
  return raw === undefined ? undefined : parseBudget(raw, "budget", "invalid_request");
}

/** `scopes` of POST /v1/keys: a list (or comma-separated text) of read, write, webhooks, admin. */
function readScopes(body: unknown): { scopes?: Scope[] } {
  const raw =
    body === null || typeof body !== "object" ? undefined : (body as { scopes?: unknown }).scopes;
  return raw === undefined ? {} : { scopes: parseScopes(raw) };
}

/** `project` of POST /v1/keys; absent: the new key is alone in a project of its own. */
function readProject(body: unknown): { project?: string } {
  const raw =
    body === null || typeof body !== "object" ? undefined : (body as { project?: unknown }).project;
  return raw === undefined ? {} : { project: parseProject(raw) };
}

/** `limits` of POST /v1/keys: {rate, burst, max_queued, max_in_flight}, each a number or null. */
function readLimits(body: unknown): Pick<ApiKeyRecord, "limits"> {
  const raw =
    body === null || typeof body !== "object" ? undefined : (body as { limits?: unknown }).limits;
  return raw === undefined ? {} : { limits: parseKeyLimits(raw, "limits", "invalid_request") };
}

/**
 * `user_limits` of POST /v1/keys: limits for each of the key's end users, the fields of `limits`
 * and a `budget` as the key's.
 */
function readUserLimits(body: unknown): { userLimits?: UserLimits } {
  const raw =
    body === null || typeof body !== "object"
      ? undefined
      : (body as { user_limits?: unknown }).user_limits;
  return raw === undefined ? {} : { userLimits: parseUserLimits(raw, "user_limits") };
}

/**
 * A key as shown: `limits` as they hold for it, its own over REELAY_KEY_LIMITS's; `user_limits`
 * (every field, null where none) when it sets any.
 */
async function withLimits<R extends ApiKeyRecord>(record: R, keyLimits: KeyLimitsPort) {
  return {
    ...record,
    limits: limitsView(await keyLimits.limitsOf(record.id, record.limits ?? {})),
    ...(record.user_limits === undefined
      ? {}
      : { user_limits: userLimitsView(record.user_limits) }),
  };
}

/** `expires_at` of POST /v1/keys: an ISO time in the future; absent, the key lasts until revoked. */
function readExpiresAt(body: unknown, now: Date): { expiresAt?: string } {
  const raw =
    body === null || typeof body !== "object"
      ? undefined
      : (body as { expires_at?: unknown }).expires_at;
  return raw === undefined ? {} : { expiresAt: parseExpiresAt(raw, now) };
}

/** `on_sunset` of POST /v1/keys: `successor` runs a sunset model's successor; `refuse` (the default) answers 400 model_sunset. */
function readOnSunset(body: unknown): { onSunset?: OnSunset } {
  const raw =
    body === null || typeof body !== "object"
      ? undefined
      : (body as { on_sunset?: unknown }).on_sunset;
  if (raw === undefined) return {};
  if ((ON_SUNSET_CHOICES as readonly unknown[]).includes(raw)) return { onSunset: raw as OnSunset };
  throw new ReelayError(
    "invalid_request",
    `on_sunset must be one of ${ON_SUNSET_CHOICES.join(", ")}.`,
    { status: 400, path: "on_sunset" },
  );
}

/** A key as listed: its budget with what the current period has used (spent and reserved). */
async function withSpend(record: ApiKeyRecord, budgets: BudgetLedgerPort, now: Date) {
  if (record.budget === undefined) return record;
  const used = await budgets.used(ledgerOf(record.id, record.budget, now));
  return { ...record, budget: { ...record.budget, used: fromMicros(used) } };
}

export function keyRoutes(
  keys: ApiKeyStorePort,
  budgets: BudgetLedgerPort,
  keyLimits: KeyLimitsPort,
): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();

  routes.use("*", async (c, next) => {
    if (!isAdmin(c.get("caller")))
      throw forbidden("Only the deployment's own API key manages keys.");
    await next();
  });

  routes.post("/", jsonBodyLimit(16 * 1024), async (c) => {
    const text = await c.req.text();
    const body = text.trim() === "" ? {} : parseJson(text);
    refuseUnknownFields(body, KEY_FIELDS);
    const budget = readBudget(body);
    const { record, key, webhookSecret } = await keys.create({
      name: readName(body),
      ...(budget === undefined ? {} : { budget }),
      ...readScopes(body),
      ...readProject(body),
      ...readLimits(body),
      ...readUserLimits(body),
      ...readExpiresAt(body, new Date()),
      ...readOnSunset(body),
    });
    const shown = await withLimits(record, keyLimits);
    return c.json({ ...shown, key, webhook_secret: webhookSecret }, 201);
  });

  routes.get("/", async (c) => {
    const now = new Date();
    const records = await keys.list();
    const shown = records.map(async (r) => withLimits(await withSpend(r, budgets, now), keyLimits));
    return c.json({ data: await Promise.all(shown) });
  });

  // PUT /v1/keys/{id}/budget {amount, unit?, period?}; DELETE removes the budget.
  routes.put("/:id/budget", jsonBodyLimit(16 * 1024), async (c) => {
    const budget = parseBudget(parseJson(await c.req.text()), "budget", "invalid_request");
    const record = await keys.setBudget(c.req.param("id"), budget);
    return c.json(await withLimits(await withSpend(record, budgets, new Date()), keyLimits));
  });

  routes.delete("/:id/budget", async (c) =>
    c.json(await withLimits(await keys.setBudget(c.req.param("id"), undefined), keyLimits)),
  );

  // PUT /v1/keys/{id}/limits {rate?, burst?, max_queued?, max_in_flight?}; DELETE: the defaults again.
  routes.put("/:id/limits", jsonBodyLimit(16 * 1024), async (c) => {
    const limits = parseKeyLimits(parseJson(await c.req.text()), "limits", "invalid_request");
    const record = await keys.setLimits(c.req.param("id"), limits);
    return c.json(await withLimits(await withSpend(record, budgets, new Date()), keyLimits));
  });

  routes.delete("/:id/limits", async (c) =>
    c.json(await withLimits(await keys.setLimits(c.req.param("id"), undefined), keyLimits)),
  );

  // A new webhook secret for the key's jobs' own webhooks; the old one signs beside it for 24 h.
  routes.post("/:id/webhook-secret", async (c) => {
    const id = c.req.param("id");
    return c.json({ id, webhook_secret: await keys.rotateWebhookSecret(id) });
  });

  routes.delete("/:id", async (c) =>
    c.json(await withLimits(await keys.revoke(c.req.param("id")), keyLimits)),
  );

  return routes;
}
