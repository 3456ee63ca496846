/**
 * reelay's batches: make one from many requests, see its exact counts and ETA, read its results
 * (JSONL, one line per request line, fresh links), cancel what has not ended, list them.
 */
import { type Handler, Hono } from "hono";
import type * as z from "zod";
import {
  batchIdFrom,
  createBatch,
  newBatchId,
  type BatchState,
  batchState,
  etaSeconds,
  resultLines,
  resultsKey,
  cancelJob,
  type BatchStorePort,
  type CheckedLine,
} from "@reelay/core/usecases";
import {
  type Batch,
  batchNotFound,
  estimateOf,
  totalEstimate,
  isTerminal,
  isReelayError,
} from "@reelay/core/domain";
import { mayAccess, ownerFilter, sourceOf } from "../../auth.ts";
import { checkLines, checkLineUploads, parseBatchBody } from "../../batch-body.ts";
import { retryBatchOf } from "../../batch-retry.ts";
import { jsonBodyLimit } from "../../body.ts";
import { dryRunQuery, validQuery } from "../../query.ts";
import {
  type ApiEnv,
  type Caller,
  cancelDepsOf,
  type ResolvedDeps,
  submitDepsOf,
} from "../../api-deps.ts";
import { batchFrames, followStream, streamSettings } from "../follow/handlers.ts";
import { IDEMPOTENCY_HEADER, readIdempotencyKey } from "../../idempotency.ts";
import { readBatchOptions } from "../../job-options.ts";
import { validateOptionsOf } from "../../model-choice.ts";

/** A JSONL body of 10,000 requests runs to a few MB; API Gateway takes at most 10 MB. */
export const MAX_BATCH_BODY_BYTES = 10 * 1024 * 1024;
/** Jobs cancelled at once by a batch cancel. */
const CANCEL_CONCURRENCY = 16;

interface BatchView {
  id: string;
  object: "batch";
  status: "in_progress" | "completed";
  total: number;
  counts: BatchState["counts"];
  source: Batch["source"];
  priority: string;
  created_at: string;
  finished_at: string | null;
  cancelled_at: string | null;
  eta_seconds: number | null;
  results: { key: string; bucket: string } | null;
  /** The batch this one retries. */
  retry_of: string | null;
  /** The batch's own metadata, each of its jobs' under the line's own; {} when none. */
  metadata: Record<string, string>;
}

function view(state: BatchState, bucket: string, now: Date): BatchView {
  const { batch } = state;
  return {
    id: batch.id,
    object: "batch",
    status: batch.finishedAt === undefined ? "in_progress" : "completed",
    total: batch.total,
    counts: state.counts,
    source: batch.source,
    priority: batch.priority ?? "normal",
    created_at: batch.createdAt,
    finished_at: batch.finishedAt ?? null,
    cancelled_at: batch.cancelledAt ?? null,
    eta_seconds: etaSeconds(state, now),
    results: batch.announcedAt === undefined ? null : { bucket, key: resultsKey(batch.id) },
    retry_of: batch.retryOf ?? null,
    metadata: batch.metadata ?? {},
  };
}

async function owned(store: BatchStorePort, id: string, caller: Caller): Promise<Batch> {
  const batch = await store.get(id);
  // Another project's batch is as unknown as a missing one.
  if (batch === undefined || !mayAccess(caller, batch)) throw batchNotFound(id);
  return batch;
}

/** The batch's view now, its counts read from its jobs' records. */
async function currentView(deps: ResolvedDeps, store: BatchStorePort, batch: Batch) {
  const state = await batchState({ batches: store, jobs: deps.jobs }, batch);
  return view(state, deps.objects.bucket, deps.now());
}

/** A dry run's answer: what would be made (with fit, each fitted line's moves and request), and its estimate. */
function quote(deps: ResolvedDeps, lines: CheckedLine[]) {
  const rejected = lines.filter((line) => line.validation === undefined);
  const fitted = lines.flatMap(({ line, validation: v }) =>
    v?.adjustments === undefined || v.adjustments.length === 0
      ? []
      : [{ line, adjustments: v.adjustments, request: v.normalized }],
  );
  return {
    dry_run: true,
    total: lines.length,
    valid: lines.length - rejected.length,
    rejected: rejected.map((line) => ({ line: line.line, errors: line.errors })),
    ...(fitted.length === 0 ? {} : { fitted }),
    estimate: totalEstimate(
      lines.flatMap(({ validation: v }) =>
        v?.kind == null || v.model === null || v.normalized === null
          ? []
          : [estimateOf({ model: v.model, request: v.normalized }, deps.prices)],
      ),
      deps.prices,
    ),
  };
}

/** POST /v1/batches: every line checked, then (unless a dry run) the jobs made and queued. */
function postBatch(
  deps: ResolvedDeps,
  store: BatchStorePort,
): Handler<ApiEnv, string, { out: { query: z.output<typeof dryRunQuery> } }> {
  return async (c) => {
    const caller = c.get("caller");
    const dryRun = c.req.valid("query").dry_run;
    const key = readIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER));
    const body = parseBatchBody(await c.req.text());
    const source = { type: "api" as const, ...sourceOf(caller) };
    const options = await readBatchOptions({ deps, caller }, body.options, (name) =>
      c.req.header(name),
    );
    const lines = await checkLineUploads(
      deps,
      checkLines(body, source, validateOptionsOf(deps, caller, options), options.metadata),
      caller,
    );
    if (dryRun) return c.json(quote(deps, lines));
    const id = key === undefined ? newBatchId() : batchIdFrom([caller.keyId, key]);
    const { batch } = await createBatch(
      { batches: store, admission: deps.admission, submit: submitDepsOf(deps), now: deps.now },
      {
        id,
        source,
        options,
        lines,
      },
    );
    return c.json(await currentView(deps, store, batch));
  };
}

/** POST /v1/batches/{id}/cancel: every job of the batch that has not ended, a few at a time. */
function cancelBatch(deps: ResolvedDeps, store: BatchStorePort): Handler<ApiEnv> {
  return async (c) => {
    const batch = await owned(store, c.req.param("id") ?? "", c.get("caller"));
    await store.setOnce(batch.id, "cancelledAt", deps.now().toISOString());
    const state = await batchState({ batches: store, jobs: deps.jobs }, batch);
    const open = [...state.jobs.values()].filter((job) => !isTerminal(job.status));
    const cancelDeps = cancelDepsOf(deps);
    for (let start = 0; start < open.length; start += CANCEL_CONCURRENCY) {
      await Promise.all(
        open.slice(start, start + CANCEL_CONCURRENCY).map((job) =>
          cancelJob(cancelDeps, job.id, "Cancelled with its batch.").catch((error: unknown) => {
            // Ended meanwhile: nothing to cancel.
            if (!isReelayError(error, "job_not_cancellable")) throw error;
          }),
        ),
      );
    }
    return c.json(await currentView(deps, store, await store.require(batch.id)));
  };
}

export function batchRoutes(deps: ResolvedDeps, store: BatchStorePort): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.post(
    "/",
    jsonBodyLimit(MAX_BATCH_BODY_BYTES),
    validQuery(dryRunQuery),
    postBatch(deps, store),
  );

  routes.get("/", async (c) => {
    const batches = await store.list({ limit: 50, ...ownerFilter(c.get("caller")) });
    return c.json({
      data: await Promise.all(batches.map((batch) => currentView(deps, store, batch))),
    });
  });

  routes.get("/:id", async (c) => {
    const batch = await owned(store, c.req.param("id"), c.get("caller"));
    return c.json(await currentView(deps, store, batch));
  });

  routes.get("/:id/results", async (c) => {
    const batch = await owned(store, c.req.param("id"), c.get("caller"));
    const state = await batchState({ batches: store, jobs: deps.jobs }, batch);
    const lines = await resultLines(deps, state, deps.presignTtlS);
    return c.body(lines.map((line) => `${JSON.stringify(line)}\n`).join(""), 200, {
      "content-type": "application/x-ndjson; charset=utf-8",
    });
  });

  /** The batch's counts as Server-Sent Events until it completes (routes/follow/handlers.ts). */
  routes.get("/:id/events", async (c) => {
    const batch = await owned(store, c.req.param("id"), c.get("caller"));
    const latest = async () => currentView(deps, store, await store.require(batch.id));
    return followStream(c, batchFrames(latest), streamSettings(deps));
  });

  routes.post("/:id/cancel", cancelBatch(deps, store));

  routes.post("/:id/retry", async (c) => {
    const batch = await owned(store, c.req.param("id"), c.get("caller"));
    return c.json(await currentView(deps, store, await retryBatchOf(deps, store, batch)));
  });
  return routes;
}
