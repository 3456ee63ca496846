/**
 * `GET /v1/jobs/{id}/content?variant=video|thumbnail|spritesheet`: a redirect to a presigned GET of
 * one of the job's stored objects, the shape of OpenAI's videos API. A variant the job does not
 * have (not succeeded yet, an image's thumbnail, a video that did not decode) is a 404 that says so.
 */
import { type Context, Hono } from "hono";
import * as z from "zod";
import { type Job, jobNotFound, ReelayError } from "@reelay/core/domain";
import type { ApiEnv, ResolvedDeps } from "../../api-deps.ts";
import { oneOfParam, validQuery } from "../../query.ts";

const CONTENT_VARIANTS = ["video", "thumbnail", "spritesheet"] as const;
type Variant = (typeof CONTENT_VARIANTS)[number];

const contentQuery = z.object({ variant: oneOfParam("variant", CONTENT_VARIANTS) });

/** The variant's key in this API's bucket, or undefined when the job has none there. */
function keyOf(job: Job, variant: Variant, bucket: string): string | undefined {
  if (job.status !== "succeeded") return undefined;
  if (variant !== "video") return job.previews?.[variant].key;
  const output = job.outputs?.[0];
  return output?.bucket === bucket ? output.key : undefined;
}

async function contentRedirect(
  c: Context<ApiEnv>,
  deps: ResolvedDeps,
  variant: Variant,
): Promise<Response> {
  const id = c.req.param("id") ?? "";
  const job = await deps.jobs.get(id);
  if (job === undefined) throw jobNotFound(id);
  const key = keyOf(job, variant, deps.objects.bucket);
  if (key === undefined) {
    const why =
      job.status !== "succeeded"
        ? `it is ${job.status}`
        : variant === "video" || job.kind !== "video"
          ? "it has no such output"
          : "its video could not be decoded into one (see its warnings)";
    throw new ReelayError("content_not_found", `Job ${id} has no ${variant}: ${why}.`, {
      status: 404,
      path: "variant",
    });
  }
  // Short-lived and never cached: each request signs anew.
  c.header("Cache-Control", "no-store");
  return c.redirect(await deps.objects.presignGet(key, deps.presignTtlS), 302);
}

/** Mounted at /v1/jobs beside jobRoutes. */
export function contentRoutes(deps: ResolvedDeps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.get("/:id/content", validQuery(contentQuery), (c) =>
    contentRedirect(c, deps, c.req.valid("query").variant ?? "video"),
  );
  return routes;
}
