import { createHash } from "node:crypto";
import {
  requestFaults,
  headerRules,
  isRequestFault,
  type FaultOutcome,
  type Req,
  type SimContext,
} from "./context.ts";
import { TASK_FAULTS, type KeyedRule, type RequestTag } from "./fault-engine.ts";
import { parseDirectives } from "./fault-parse.ts";
import { sendError } from "./http-io.ts";
import { accountOf, checkLimits, inFlightByApiKey } from "./account-limits.ts";
import { ownRuleKey } from "./portable-ids.ts";
import { newTaskId, type TaskRecord } from "./tasks.ts";
import { forgetEndedNow } from "./forget.ts";
import { fetchMaterial } from "./material-fetch.ts";
import { videoSize } from "./video-output.ts";
import { clipOf, shapeOf } from "./video-shapes.ts";

const DEFAULT_FAIL_REASON = "Content moderation rejected the prompt";

export interface CreateInput {
  kind: "video" | "image";
  route: string;
  model: string;
  prompt: string;
  request: unknown;
  imageCount: number;
  /** Image edits and synchronous images finish at once. */
  immediate: boolean;
}

export function idempotencyKey(r: Req): string | undefined {
  const raw = r.req.headers["x-idempotency-key"];
  const key = Array.isArray(raw) ? raw[0] : raw;
  return key === undefined || key === "" ? undefined : key;
}

/** Request faults a prompt asks for on its own create (`on=create`), counted per prompt text. */
function promptCreateRules(prompt: string): KeyedRule[] {
  const hash = createHash("sha256").update(prompt).digest("hex").slice(0, 16);
  return parseDirectives(prompt)
    .faults.filter((rule) => rule.on === "create" && isRequestFault(rule))
    .map((rule, i) => ({ rule, key: `prompt:${hash}:${i}` }));
}

function makeTask(
  ctx: SimContext,
  r: Req,
  input: CreateInput,
  key: string | undefined,
  tags: readonly RequestTag[],
): TaskRecord {
  const id = newTaskId(input.kind, ctx.opts.taskIdPrefix);
  const d = parseDirectives(input.prompt);
  const o = ctx.opts;
  const now = o.now();
  const queue = input.immediate ? 0 : (d.queueMs ?? o.queueMs) * o.timeScale;
  const generation = input.immediate ? 0 : (d.generationMs ?? o.generationMs) * o.timeScale;
  // Task-level and download faults named on the create (header or prompt) stay with the task.
  const own: KeyedRule[] = [
    ...headerRules(r).filter((rule) => !isRequestFault(rule)),
    ...d.faults.filter((rule) => rule.on !== "create" || !isRequestFault(rule)),
  ].map((rule, i) => ({ rule, key: ownRuleKey(id, i) }));
  const taskLevel = [...ctx.serverRules, ...own];
  const neverFinish =
    !input.immediate &&
    ctx.engine.first(taskLevel, tags, new Set(["never_finish"]), input.model) !== undefined;
  const fail = neverFinish
    ? undefined
    : ctx.engine.first(taskLevel, tags, new Set(["task_fail"]), input.model);
  const task: TaskRecord = {
    id,
    kind: input.kind,
    model: input.model,
    dialect: d.dialect ?? o.dialect,
    request: input.request,
    idempotencyKey: key,
    account: accountOf(r.req),
    createdAt: now,
    runningAt: now + queue,
    finishesAt: neverFinish ? Number.POSITIVE_INFINITY : now + queue + generation,
    failReason: fail === undefined ? undefined : (fail.reason ?? DEFAULT_FAIL_REASON),
    ...videoOf(input, d.outputDurationS, d.outputBytes ?? o.outputBytes),
    imageCount: input.imageCount,
    faults: own.filter((k) => !TASK_FAULTS.has(k.rule.fault)),
    shaCache: new Map(),
  };
  if (ctx.portable !== undefined) task.id = ctx.portable.encode(task);
  const keyEntry = key === undefined ? undefined : `${input.route}\n${key}`;
  forgetEndedNow(ctx);
  ctx.journal?.append(task, keyEntry);
  ctx.tasks.set(task.id, task);
  if (keyEntry !== undefined) ctx.byKey.set(keyEntry, task.id);
  ctx.counters.taskCreated(key);
  return task;
}

/** A video task's clip (the shape its request asks for, encoded now if new) and its served size. */
function videoOf(
  input: CreateInput,
  durationS: number | undefined,
  outputBytes: number | undefined,
): Pick<TaskRecord, "outputBytes" | "video"> {
  const video = input.kind === "video" ? shapeOf(input.request, durationS) : undefined;
  if (video === undefined) return { outputBytes: videoSize(outputBytes) };
  return { outputBytes: videoSize(outputBytes, clipOf(video)), video };
}

export type CreateResult =
  | { task: TaskRecord; after: (FaultOutcome & { kind: "after" }) | undefined }
  | undefined;

/**
 * The create path shared by every endpoint: faults, then idempotency, then a new task.
 * Returns undefined when a fault already answered. Validation happens before this call.
 */
export async function createTask(
  ctx: SimContext,
  r: Req,
  tags: readonly RequestTag[],
  input: CreateInput,
): Promise<CreateResult> {
  const key = idempotencyKey(r);
  const outcome = await requestFaults(ctx, r, tags, promptCreateRules(input.prompt), input.model);
  if (outcome.kind === "answered") return undefined;
  const after = outcome.kind === "after" ? outcome : undefined;
  const existing =
    key === undefined ? undefined : ctx.tasks.get(ctx.byKey.get(`${input.route}\n${key}`) ?? "");
  if (existing !== undefined) return { task: existing, after };
  // A repeat of a create answers with its task whatever the limits; a new task must fit them.
  const account = accountOf(r.req);
  const limited = checkLimits(ctx, account);
  if (limited !== undefined) {
    ctx.counters.limited(account);
    sendError(r.res, 429, limited.code, limited.message, {
      "retry-after": String(limited.retryAfterS),
    });
    return undefined;
  }
  const task = makeTask(ctx, r, input, key, tags);
  // Counted at the create's instant: a short task (50 ms at a test's time scale) read a moment
  // later, after a stall of a loaded machine, had already ended and left no peak for its key.
  ctx.counters.inFlight(inFlightByApiKey(ctx, task.createdAt));
  fetchMaterial(ctx, input.request);
  return { task, after };
}
