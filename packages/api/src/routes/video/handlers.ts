/** The service contract's video endpoints: create a task, query it. */
import { Hono } from "hono";
import { jobNotFound } from "@reelay/core/domain";
import { jsonBodyLimit } from "../../body.ts";
import type { ApiEnv, ResolvedDeps } from "../../api-deps.ts";
import { createVideoJob, dryRunVideo, jsonCreate } from "../../create.ts";
import { dryRunQuery, validQuery } from "../../query.ts";
import { taskView, withQueuePosition } from "../../views.ts";

export function videoRoutes(deps: ResolvedDeps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const signer = { objects: deps.objects, ttlS: deps.presignTtlS, now: deps.now };

  routes.post(
    "/generations",
    jsonBodyLimit(deps.maxBodyBytes),
    validQuery(dryRunQuery),
    jsonCreate(deps, createVideoJob, dryRunVideo),
  );

  routes.get("/tasks/:taskId", async (c) => {
    const id = c.req.param("taskId");
    const job = await deps.jobs.get(id);
    // Ids of image jobs are unknown here, as the contract's video endpoint would not know them.
    if (job === undefined || job.kind !== "video") throw jobNotFound(id);
    return c.json(await withQueuePosition(await taskView(job, signer), job, deps.admission));
  });

  return routes;
}
