/** reelay's own job endpoints: the full record with its history, newest first with filters and cursor pages, and cancel. */
import { Hono } from "hono";
import { cancelJob } from "@reelay/core/usecases";
import {
  decodeCursor,
  isJobId,
  JOB_ID_SOURCE,
  MAX_PAGE_SIZE,
  MAX_RETENTION_DAYS,
  jobNotFound,
  type ListFilters,
  type ListOptions,
  JOB_STATUSES,
  type JobKind,
  type JobSource,
  defaultCatalog,
  ReelayError,
} from "@reelay/core/domain";
import { ownerFilter } from "../../auth.ts";
import { jsonBodyLimit, parseJson } from "../../body.ts";
import { retryJobForCaller } from "../../retry.ts";
import { type ApiEnv, cancelDepsOf, type ResolvedDeps } from "../../api-deps.ts";
import { jobView, withQueuePosition } from "../../views.ts";
import { followStream, jobFrames, streamSettings } from "../follow/handlers.ts";

function badQuery(path: string, message: string): ReelayError {
  return new ReelayError("invalid_query", message, { status: 400, path });
}

export function readLimit(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_PAGE_SIZE) {
    throw badQuery("limit", `limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`);
  }
  return Number(raw);
}

export function readOneOf<T extends string>(
  path: string,
  raw: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw))
    throw badQuery(
      path,
      `${path} must be one of ${allowed.join(", ")} (got "${raw.slice(0, 40)}").`,
    );
  return raw as T;
}

const KINDS: readonly JobKind[] = ["video", "image"];
const SOURCES: readonly JobSource["type"][] = ["api", "drop", "cli"];

/** Only a model the catalog knows can have jobs, so anything else is a typo worth naming. */
function readModel(raw: string | undefined, deps: ResolvedDeps): string | undefined {
  if (raw === undefined) return undefined;
  const catalog = deps.catalog ?? defaultCatalog;
  if (catalog.get(raw) !== undefined) return raw;
  const close = catalog.closeMatches(raw);
  const hint = close.length === 0 ? "" : ` Did you mean ${close.join(", ")}?`;
  throw badQuery("model", `model "${raw.slice(0, 60)}" is not a model in the catalog.${hint}`);
}

/**
 * `expiring_within=<seconds>`: jobs whose outputs expire from now to that many seconds ahead (not
 * those expired already), up to MAX_RETENTION_DAYS.
 */
function readExpiring(raw: string | undefined, now: Date): ListFilters["expiring"] {
  if (raw === undefined) return undefined;
  const maxS = MAX_RETENTION_DAYS * 86_400;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > maxS)
    throw badQuery("expiring_within", `expiring_within must be seconds from 1 to ${maxS}.`);
  const until = new Date(now.getTime() + Number(raw) * 1000);
  return { from: now.toISOString(), to: until.toISOString() };
}

function readFilters(query: (name: string) => string | undefined, deps: ResolvedDeps): ListFilters {
  const status = readOneOf("status", query("status"), JOB_STATUSES);
  const model = readModel(query("model"), deps);
  const kind = readOneOf("kind", query("kind"), KINDS);
  const source = readOneOf("source", query("source"), SOURCES);
  const expiring = readExpiring(query("expiring_within"), deps.now());
  return {
    ...(status === undefined ? {} : { status }),
    ...(model === undefined ? {} : { model }),
    ...(kind === undefined ? {} : { kind }),
    ...(source === undefined ? {} : { source }),
    ...(expiring === undefined ? {} : { expiring }),
  };
}

/** `<createdAt>#<id>`, as the store writes it; anything longer would fail DynamoDB's key-size check as a 503. */
const LIST_SORT_KEY = new RegExp(
  `^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z#${JOB_ID_SOURCE}$`,
);

/** A cursor must name a listing position this service could have returned, or DynamoDB would be asked nonsense. */
function readCursor(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const position = decodeCursor(raw);
  if (
    !isJobId(position.id) ||
    !LIST_SORT_KEY.test(position.sk) ||
    !position.sk.endsWith(`#${position.id}`)
  ) {
    throw new ReelayError(
      "invalid_cursor",
      "The cursor is not one this service returned; start the listing again without it.",
      { status: 400, path: "cursor" },
    );
  }
  return raw;
}

export function jobRoutes(deps: ResolvedDeps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const signer = { objects: deps.objects, ttlS: deps.presignTtlS, now: deps.now };

  routes.get("/", async (c) => {
    const limit = readLimit(c.req.query("limit"));
    const cursor = readCursor(c.req.query("cursor"));
    const options: ListOptions = {
      ...readFilters((name) => c.req.query(name), deps),
      ...(limit === undefined ? {} : { limit }),
      ...(cursor === undefined ? {} : { cursor }),
    };
    const page = await deps.jobs.list({ ...options, ...ownerFilter(c.get("caller")) });
    const data = await Promise.all(page.jobs.map((job) => jobView(job, signer)));
    return c.json({ data, next_cursor: page.cursor ?? null });
  });

  routes.get("/:id", async (c) => {
    const id = c.req.param("id");
    const job = await deps.jobs.get(id);
    if (job === undefined) throw jobNotFound(id);
    return c.json(await withQueuePosition(await jobView(job, signer), job, deps.admission));
  });

  /** The job's changes as Server-Sent Events until it ends (follow.ts). */
  routes.get("/:id/events", async (c) => {
    const id = c.req.param("id");
    if ((await deps.jobs.get(id)) === undefined) throw jobNotFound(id);
    return followStream(c, jobFrames(deps, id), streamSettings(deps));
  });

  /** The record moves to cancelled first, then the execution is stopped (see cancelJob). */
  routes.post("/:id/cancel", async (c) => {
    const id = c.req.param("id");
    const job = await cancelJob(cancelDepsOf(deps), id);
    return c.json(await jobView(job, signer));
  });

  /** A new job from a failed or cancelled one's request, the body's fields laid over it. */
  routes.post("/:id/retry", jsonBodyLimit(deps.maxBodyBytes), async (c) => {
    const id = c.req.param("id");
    const source = await deps.jobs.get(id);
    if (source === undefined) throw jobNotFound(id);
    const text = await c.req.text();
    const body = text.trim() === "" ? undefined : parseJson(text);
    const { job } = await retryJobForCaller(deps, source, c.get("caller"), body);
    return c.json(await jobView(job, signer));
  });

  return routes;
}
