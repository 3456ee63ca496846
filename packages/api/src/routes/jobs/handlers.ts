/** reelay's own job endpoints: the full record with its history, newest first with filters and cursor pages, and cancel. */
import { Hono } from "hono";
import * as z from "zod";
import { cancelJob } from "@reelay/core/usecases";
import {
  decodeCursor,
  isJobId,
  JOB_ID_SOURCE,
  MAX_RETENTION_DAYS,
  jobNotFound,
  type ListFilters,
  type ListOptions,
  JOB_STATUSES,
  type JobKind,
  type JobSource,
  defaultCatalog,
  type Catalog,
  MAX_METADATA_PAIRS,
  MAX_METADATA_VALUE,
  metadataKeyProblem,
  ReelayError,
  parseUserId,
} from "@reelay/core/domain";
import { ownerFilter } from "../../auth.ts";
import { jsonBodyLimit, parseJson } from "../../body.ts";
import { limitParam, oneOfParam, parsedBy, validQuery } from "../../query.ts";
import { retryJobForCaller } from "../../retry.ts";
import { type ApiEnv, cancelDepsOf, type ResolvedDeps } from "../../api-deps.ts";
import { jobView, withQueuePosition } from "../../views.ts";
import { followStream, jobFrames, streamSettings } from "../follow/handlers.ts";

const KINDS: readonly JobKind[] = ["video", "image"];
const SOURCES: readonly JobSource["type"][] = ["api", "drop", "cli"];

/** Only a model the catalog knows can have jobs, so anything else is a typo worth naming. */
function modelParam(catalog: Catalog) {
  return z
    .string()
    .refine((raw) => catalog.get(raw) !== undefined, {
      error: (issue) => {
        const raw = String(issue.input);
        const close = catalog.closeMatches(raw);
        const hint = close.length === 0 ? "" : ` Did you mean ${close.join(", ")}?`;
        return `model "${raw.slice(0, 60)}" is not a model in the catalog.${hint}`;
      },
    })
    .optional();
}

/**
 * `expiring_within=<seconds>`: jobs whose outputs expire from now to that many seconds ahead (not
 * those expired already), up to MAX_RETENTION_DAYS.
 */
function expiringParam(now: () => Date) {
  const maxS = MAX_RETENTION_DAYS * 86_400;
  const message = `expiring_within must be seconds from 1 to ${maxS}.`;
  return z
    .string()
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .refine((s) => s >= 1 && s <= maxS, message)
    .transform((s): NonNullable<ListFilters["expiring"]> => {
      const from = now();
      return { from: from.toISOString(), to: new Date(from.getTime() + s * 1000).toISOString() };
    })
    .optional();
}

/** `<createdAt>#<id>`, as the store writes it; anything longer would fail DynamoDB's key-size check as a 503. */
const LIST_SORT_KEY = new RegExp(
  `^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z#${JOB_ID_SOURCE}$`,
);

/** A cursor must name a listing position this service could have returned, or DynamoDB would be asked nonsense. */
function isListingCursor(raw: string): boolean {
  try {
    const position = decodeCursor(raw);
    return (
      isJobId(position.id) &&
      LIST_SORT_KEY.test(position.sk) &&
      position.sk.endsWith(`#${position.id}`)
    );
  } catch {
    return false;
  }
}

const cursorParam = z
  .string()
  .refine(isListingCursor, {
    message: "The cursor is not one this service returned; start the listing again without it.",
    params: { code: "invalid_cursor" },
  })
  .optional();

const METADATA_PARAM = "metadata.";

/** Why a `metadata.KEY=VALUE` parameter (or a bare `metadata`) can name no job; undefined when it can. */
function metadataParamProblem(name: string, value: string): string | undefined {
  if (name === "metadata")
    return "List by metadata as metadata.KEY=VALUE (one parameter a pair; all must match).";
  const problem = metadataKeyProblem(name.slice(METADATA_PARAM.length));
  if (problem !== undefined) return `${name}: ${problem}.`;
  if (value.length > MAX_METADATA_VALUE)
    return `${name}: a metadata value is at most ${MAX_METADATA_VALUE} characters.`;
  return undefined;
}

/**
 * The `metadata.KEY=VALUE` parameters as one filter (all must match), read beside the query's
 * schema and after it; undefined when none. A refusal is 400 invalid_metadata naming the parameter.
 */
function metadataFilter(query: Record<string, string>): Record<string, string> | undefined {
  const given = Object.entries(query).filter(
    ([name]) => name === "metadata" || name.startsWith(METADATA_PARAM),
  );
  if (given.length === 0) return undefined;
  const refuse = (path: string, message: string) =>
    new ReelayError("invalid_metadata", message, { status: 400, path });
  for (const [name, value] of given) {
    const problem = metadataParamProblem(name, value);
    if (problem !== undefined) throw refuse(name, problem);
  }
  const over = given[MAX_METADATA_PAIRS];
  if (over !== undefined)
    throw refuse(
      over[0],
      `A job holds at most ${MAX_METADATA_PAIRS} metadata pairs; so does a filter.`,
    );
  return Object.fromEntries(
    given.map(([name, value]) => [name.slice(METADATA_PARAM.length), value]),
  );
}

/** GET /v1/jobs's query, checked in this order. */
function listQuery(deps: ResolvedDeps) {
  return z.object({
    limit: limitParam,
    cursor: cursorParam,
    status: oneOfParam("status", JOB_STATUSES),
    model: modelParam(deps.catalog ?? defaultCatalog),
    kind: oneOfParam("kind", KINDS),
    source: oneOfParam("source", SOURCES),
    expiring_within: expiringParam(() => deps.now()),
    user: parsedBy((raw) => parseUserId(raw, "user")),
  });
}

export function jobRoutes(deps: ResolvedDeps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const signer = { objects: deps.objects, ttlS: deps.presignTtlS, now: deps.now };

  routes.get("/", validQuery(listQuery(deps)), async (c) => {
    const { limit, cursor, status, model, kind, source, expiring_within, user } =
      c.req.valid("query");
    const metadata = metadataFilter(c.req.query());
    const options: ListOptions = {
      ...(status === undefined ? {} : { status }),
      ...(model === undefined ? {} : { model }),
      ...(kind === undefined ? {} : { kind }),
      ...(source === undefined ? {} : { source }),
      ...(expiring_within === undefined ? {} : { expiring: expiring_within }),
      ...(metadata === undefined ? {} : { metadata }),
      ...(user === undefined ? {} : { user }),
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

  /** The job's changes as Server-Sent Events until it ends (routes/follow/handlers.ts). */
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
