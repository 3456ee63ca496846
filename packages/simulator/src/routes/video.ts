import { answerFault, requestFaults, findTask, type Req, type SimContext } from "../context.ts";
import { createTask, idempotencyKey } from "../create-task.ts";
import { renderVideoTask } from "../dialects.ts";
import { HttpError, readJson, sendJson } from "../http-io.ts";
import { outputUrls, statusAt, type TaskRecord } from "../tasks.ts";
import { validateVideoCreate } from "../validate.ts";

function videoBody(ctx: SimContext, task: TaskRecord): Record<string, unknown> {
  const status = statusAt(task, ctx.opts.now());
  const url =
    status === "succeeded"
      ? outputUrls(task, ctx.signer, ctx.origin, ctx.opts.urlTtlMs)[0]
      : undefined;
  return renderVideoTask(task.dialect, {
    id: task.id,
    status,
    videoUrl: url,
    failReason: task.failReason,
  });
}

/** POST /v1/video/generations */
export async function createVideo(ctx: SimContext, r: Req): Promise<void> {
  ctx.counters.create(idempotencyKey(r));
  const input = validateVideoCreate(await readJson(r.req, ctx.opts.maxBodyBytes), ctx.opts.models);
  const made = await createTask(ctx, r, ["create"], {
    kind: "video",
    route: "video",
    model: input.model,
    prompt: input.prompt,
    request: input.body,
    imageCount: 0,
    immediate: false,
  });
  if (made === undefined) return;
  if (made.after !== undefined) return answerFault(r, made.after.rule);
  sendJson(r.res, 200, videoBody(ctx, made.task));
}

/** GET /v1/video/tasks/{taskId} */
export async function pollVideo(ctx: SimContext, r: Req, id: string): Promise<void> {
  ctx.counters.poll(id);
  const task = findTask(ctx, id);
  const outcome = await requestFaults(ctx, r, ["poll"], task?.faults ?? [], task?.model);
  if (outcome.kind !== "none") return;
  if (task === undefined || task.kind !== "video")
    throw new HttpError(404, "task_not_found", `No video task with id \`${id}\``);
  sendJson(r.res, 200, videoBody(ctx, task));
}
