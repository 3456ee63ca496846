/**
 * The contract's image endpoints: create an image task through the chat form, query it, and
 * OpenAI's multipart images/edits mapped onto the same jobs.
 */
import { Hono } from "hono";
import { jobNotFound, type Job, ReelayError, relayedCode } from "@reelay/core/domain";
import { jsonBodyLimit } from "../../body.ts";
import { setModelHeaders } from "../../model-choice.ts";
import { createImageJob, dryRunImage } from "../../create-image.ts";
import type { ApiEnv, ResolvedDeps } from "../../api-deps.ts";
import { answerDryRun, createHeaders, jsonCreate } from "../../create.ts";
import { createEditJob, dryRunEdit } from "../../image-edit.ts";
import { dryRunQuery, validQuery } from "../../query.ts";
import { imageTaskView } from "../../image-view.ts";
import { editBodyLimit, readEditForm } from "../../multipart.ts";
import { createdView, withQueuePosition } from "../../views.ts";
import { readWait, waitForJob } from "../../wait.ts";

/** A failed edit is not a result; OpenAI clients throw on a non-2xx answer, which is what they should do. */
function editFailed(job: Job): ReelayError {
  const error = job.error ?? { code: job.status, message: `The job is ${job.status}.` };
  // The job's own code, which may be the upstream's rather than one of reelay's.
  return new ReelayError(
    relayedCode(error.code),
    `The edit ${job.id} ${job.status}: ${error.message}`,
    {
      status: 502,
      details: { task_id: job.id, status: job.status },
    },
  );
}

export function imageRoutes(deps: ResolvedDeps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const signer = { objects: deps.objects, ttlS: deps.presignTtlS, now: deps.now };

  routes.post(
    "/chat/completions",
    jsonBodyLimit(deps.maxBodyBytes),
    validQuery(dryRunQuery),
    jsonCreate(deps, createImageJob, dryRunImage),
  );

  routes.get("/image/tasks/:taskId", async (c) => {
    const id = c.req.param("taskId");
    const job = await deps.jobs.get(id);
    if (job === undefined || job.kind !== "image") throw jobNotFound(id);
    return c.json(await withQueuePosition(await imageTaskView(job, signer), job, deps.admission));
  });

  routes.post("/images/edits", editBodyLimit(), validQuery(dryRunQuery), async (c) => {
    const wait = readWait(c.req.query("wait"), c.req.header("prefer"), deps.maxWaitS);
    const form = await readEditForm(c.req.raw);
    const input = await createHeaders(c, deps);
    if (c.req.valid("query").dry_run)
      return answerDryRun(c, deps, await dryRunEdit(deps, form, input));
    const { job } = await createEditJob(deps, form, input);
    setModelHeaders(c, deps, job);
    if (wait === undefined || wait === 0) return c.json(createdView(job));
    const done = await waitForJob(deps.jobs, job.id, wait);
    if (done.status === "failed" || done.status === "cancelled") throw editFailed(done);
    if (done.status !== "succeeded") return c.json(createdView(done), 202);
    const view = await imageTaskView(done, signer);
    return c.json({
      created: Math.floor(Date.parse(done.createdAt) / 1000),
      data: view.data ?? [],
    });
  });

  return routes;
}
