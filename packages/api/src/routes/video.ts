/** The service contract's video endpoints: create a task, query it. */
import { Hono } from "hono";
import { jobNotFound } from "@reelay/core/domain";
import { jsonBodyLimit, parseJson } from "../body.ts";
import { createVideoJob } from "../create.ts";
import type { ApiEnv, ResolvedDeps } from "../api-deps.ts";
import { IDEMPOTENCY_HEADER, readIdempotencyKey } from "../idempotency.ts";
import { PRIORITY_HEADER, readPriority } from "../priority.ts";
import { HEADER_PATHS, headerWebhook, readJobWebhook } from "../webhook-input.ts";
import { createdView, taskView, withQueuePosition } from "../views.ts";

export function videoRoutes(deps: ResolvedDeps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const signer = { objects: deps.objects, ttlS: deps.presignTtlS, now: deps.now };

  routes.post("/generations", jsonBodyLimit(deps.maxBodyBytes), async (c) => {
    const idempotencyKey = readIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER));
    const body = parseJson(await c.req.text());
    const priority = readPriority(c.req.header(PRIORITY_HEADER));
    const caller = c.get("caller");
    const webhook = await readJobWebhook(
      deps,
      caller,
      headerWebhook((name) => c.req.header(name)),
      HEADER_PATHS,
    );
    const { job } = await createVideoJob(deps, { body, caller, idempotencyKey, priority, webhook });
    return c.json(createdView(job));
  });

  routes.get("/tasks/:taskId", async (c) => {
    const id = c.req.param("taskId");
    const job = await deps.jobs.get(id);
    // Ids of image jobs are unknown here, as the contract's video endpoint would not know them.
    if (job === undefined || job.kind !== "video") throw jobNotFound(id);
    return c.json(await withQueuePosition(await taskView(job, signer), job, deps.admission));
  });

  return routes;
}
