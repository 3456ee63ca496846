/**
 * Each key sees its project's jobs: every route that names a job (`/v1/jobs/{id}` and below, the
 * contract's task endpoints) answers another project's job with the same 404 `job_not_found` as an
 * unknown id, so a stranger learns nothing of which ids exist.
 * The event stream carries every job's terminal event, so only the admin key may follow it.
 */
import type { MiddlewareHandler } from "hono";
import { jobNotFound } from "@reelay/core/domain";
import type { JobStorePort } from "@reelay/core/usecases";
import { forbidden, isAdmin, mayAccess } from "./auth.ts";
import type { ApiEnv } from "./api-deps.ts";

const JOB_PATH = /^\/v1\/(?:jobs|video\/tasks|image\/tasks)\/([^/]+)/;

/** As hono decodes route params: a malformed escape (`%FF`) is kept as sent, not thrown as a 500. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function jobAccess(jobs: Pick<JobStorePort, "get">): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const caller = c.get("caller");
    if (!isAdmin(caller) && (c.req.path === "/v1/events" || c.req.path.startsWith("/v1/events/"))) {
      throw forbidden(
        "The event stream shows every job's events; follow it with the deployment's own API key.",
      );
    }
    const match = JOB_PATH.exec(c.req.path);
    if (match?.[1] !== undefined && !isAdmin(caller)) {
      const id = decodeSegment(match[1]);
      const job = await jobs.get(id);
      if (job !== undefined && !mayAccess(caller, job)) throw jobNotFound(id);
    }
    await next();
  };
}
