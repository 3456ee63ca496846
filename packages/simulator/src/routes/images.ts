import { answerFault, requestFaults, findTask, type Req, type SimContext } from "../context.ts";
import { createTask, idempotencyKey, type CreateInput } from "../create-task.ts";
import { HttpError, readBody, readJson, sendJson } from "../http-io.ts";
import {
  outputUrls,
  pngFor,
  outputNames,
  statusAt,
  taskIdSuffix,
  type TaskRecord,
} from "../tasks.ts";
import { validateChatImage, validateImageEdit, type ImageCreate } from "../validate.ts";

function imageTaskBody(ctx: SimContext, task: TaskRecord): Record<string, unknown> {
  const status = statusAt(task, ctx.opts.now());
  const body: Record<string, unknown> = { task_id: task.id, status };
  if (status === "succeeded") body.images = urls(ctx, task).map((url) => ({ url }));
  if (status === "failed") body.error = { code: "generation_failed", message: task.failReason };
  return body;
}

function urls(ctx: SimContext, task: TaskRecord): string[] {
  return outputUrls(task, ctx.signer, ctx.origin, ctx.opts.urlTtlMs);
}

function failedInline(ctx: SimContext, r: Req, task: TaskRecord): boolean {
  if (statusAt(task, ctx.opts.now()) !== "failed") return false;
  sendJson(r.res, 200, { error: { code: "generation_failed", message: task.failReason } });
  return true;
}

async function create(
  ctx: SimContext,
  r: Req,
  route: string,
  input: ImageCreate,
  immediate: boolean,
): Promise<TaskRecord | undefined> {
  const spec: CreateInput = {
    kind: "image",
    route,
    model: input.model,
    prompt: input.prompt,
    request: input.body,
    imageCount: input.count,
    immediate,
  };
  const made = await createTask(ctx, r, ["image", "create"], spec);
  if (made === undefined) return undefined;
  if (made.after !== undefined) {
    answerFault(r, made.after.rule);
    return undefined;
  }
  return made.task;
}

/** POST /v1/chat/completions with image modality: an image task, or the images at once with syncImages. */
export async function chatImage(ctx: SimContext, r: Req): Promise<void> {
  ctx.counters.create(idempotencyKey(r));
  const input = validateChatImage(await readJson(r.req, ctx.opts.maxBodyBytes), ctx.opts.models);
  const sync = ctx.opts.syncImages;
  const task = await create(ctx, r, "chat", input, sync);
  if (task === undefined) return;
  if (!sync) {
    const body = imageTaskBody(ctx, task);
    sendJson(r.res, 200, {
      id: task.id,
      object: "image.task",
      ...body,
      service_task: { task_id: task.id, status: body.status },
    });
    return;
  }
  if (failedInline(ctx, r, task)) return;
  sendJson(r.res, 200, {
    id: `chatcmpl-${taskIdSuffix(task.id)}`,
    object: "chat.completion",
    created: Math.floor(task.createdAt / 1000),
    model: task.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: "",
          images: urls(ctx, task).map((url) => ({ type: "image_url", image_url: { url } })),
        },
        finish_reason: "stop",
      },
    ],
  });
}

/** GET /v1/image/tasks/{taskId} */
export async function pollImage(ctx: SimContext, r: Req, id: string): Promise<void> {
  ctx.counters.poll(id);
  const task = findTask(ctx, id);
  const outcome = await requestFaults(ctx, r, ["image", "poll"], task?.faults ?? [], task?.model);
  if (outcome.kind !== "none") return;
  if (task === undefined || task.kind !== "image")
    throw new HttpError(404, "task_not_found", `No image task with id \`${id}\``);
  sendJson(r.res, 200, imageTaskBody(ctx, task));
}

async function parseForm(ctx: SimContext, r: Req): Promise<FormData> {
  const type = r.req.headers["content-type"] ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    throw new HttpError(400, "invalid_content_type", "images/edits takes multipart/form-data");
  }
  const raw = await readBody(r.req, ctx.opts.maxBodyBytes);
  try {
    return await new Request("http://127.0.0.1/", {
      method: "POST",
      headers: { "content-type": type },
      body: raw,
    }).formData();
  } catch {
    throw new HttpError(400, "invalid_multipart", "Request body is not valid multipart/form-data");
  }
}

/** POST /v1/images/edits (OpenAI-compatible): answers `{created, data:[{url}]}` at once. */
export async function editImage(ctx: SimContext, r: Req): Promise<void> {
  ctx.counters.create(idempotencyKey(r));
  const input = validateImageEdit(await parseForm(ctx, r), ctx.opts.models);
  const task = await create(ctx, r, "edits", input, true);
  if (task === undefined || failedInline(ctx, r, task)) return;
  const created = Math.floor(task.createdAt / 1000);
  if (input.body.response_format === "b64_json") {
    const data = outputNames(task).map((name) => ({
      b64_json: pngFor(task, name).toString("base64"),
    }));
    sendJson(r.res, 200, { created, data });
    return;
  }
  sendJson(r.res, 200, { created, data: urls(ctx, task).map((url) => ({ url })) });
}
