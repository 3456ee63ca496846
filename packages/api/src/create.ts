/**
 * POST /v1/video/generations: validate, then core's one submitJob (reserve, record, queue). A job
 * is either queued or failed with `start_failed` before the caller hears back, so nothing is lost
 * silently between the record and the queue.
 */
import { isAdmin, projectOfCaller, sourceOf } from "./auth.ts";
import type { Context, Handler } from "hono";
import type * as z from "zod";
import type { Issue, Job, JobOptions, MaterialDigests } from "@reelay/core/domain";
import {
  estimateOf,
  fromMicros,
  invalidRequest,
  ReelayError,
  usageView,
  validate,
  type ValidationResult,
} from "@reelay/core/domain";
import { checkUploadRefs, submitJob } from "@reelay/core/usecases";
import { type ApiEnv, type Caller, type ResolvedDeps, submitDepsOf } from "./api-deps.ts";
import { IDEMPOTENCY_HEADER, idempotentJobId, readIdempotencyKey } from "./idempotency.ts";
import { readHeaderOptions } from "./job-options.ts";
import { parseJson } from "./body.ts";
import { setModelHeaders, validateOptionsOf } from "./model-choice.ts";
import type { dryRunQuery } from "./query.ts";
import { createdView } from "./views.ts";

export interface CreateInput {
  body: unknown;
  caller: Caller;
  idempotencyKey?: string | undefined;
  /** The X-Reelay-* headers' options, checked (job-options.ts). */
  options: JobOptions;
  /** The job this one retries (POST /v1/jobs/{id}/retry). */
  retryOf?: string;
}

/**
 * What the contract's create routes (video, chat completions, image edits) take in headers beside
 * the contract's body: X-Idempotency-Key and the job's options, each checked, with the caller.
 */
export async function createHeaders(
  c: Context<ApiEnv>,
  deps: ResolvedDeps,
): Promise<Omit<CreateInput, "body">> {
  const idempotencyKey = readIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER));
  const caller = c.get("caller");
  const options = await readHeaderOptions({ deps, caller }, (name) => c.req.header(name));
  return { caller, idempotencyKey, options };
}

/** What validate() checks a create against: the deployment's catalog, fitted when the caller asks. */
function wrongEndpoint(): ReelayError {
  return new ReelayError(
    "wrong_endpoint",
    "This is an image request (messages/modalities or an image model); send it to POST /v1/chat/completions. This endpoint creates videos.",
    { status: 400, details: { endpoint: "/v1/chat/completions" } },
  );
}

/**
 * The issues of a valid request's upload:// references: each must name an upload of the caller's
 * project (the deployment's key: of any) of the kind its field takes. Their sha256 by reference,
 * for the job's fingerprint.
 */
export async function uploadIssues(
  deps: ResolvedDeps,
  validation: ValidationResult,
  caller: Caller,
): Promise<{ issues: Issue[]; digests: Map<string, string> }> {
  if (!validation.valid || validation.normalized === null)
    return { issues: [], digests: new Map() };
  const project = isAdmin(caller) ? undefined : projectOfCaller(caller);
  return checkUploadRefs(deps, validation.normalized, project);
}

/** The request's upload references checked: 400 `invalid_request` naming the field, nothing recorded. */
async function checkUploads(
  deps: ResolvedDeps,
  validation: ValidationResult,
  caller: Caller,
): Promise<Map<string, string>> {
  const { issues, digests } = await uploadIssues(deps, validation, caller);
  if (issues.length > 0) throw invalidRequest(issues);
  return digests;
}

/**
 * A job for a caller who waits for the answer (every endpoint that creates one job): submitJob with
 * the estimate reserved from the caller's budgets now (402 when it does not fit). A repeat of an
 * idempotency key answers with the first job as it stands. `jobId` fixes the id when the caller
 * needs it before the record (uploads stored under it); it must be the idempotent id when a key
 * was given.
 */
export async function submitForCaller(
  deps: ResolvedDeps,
  validation: ValidationResult,
  input: Omit<CreateInput, "body"> & { jobId?: string; materials?: MaterialDigests },
): Promise<{ job: Job; created: boolean }> {
  const uploaded = await checkUploads(deps, validation, input.caller);
  const materials =
    uploaded.size === 0 ? input.materials : new Map([...(input.materials ?? []), ...uploaded]);
  const key = input.idempotencyKey;
  const kind = validation.kind ?? "video";
  const jobId =
    input.jobId ?? (key === undefined ? undefined : idempotentJobId(kind, input.caller.keyId, key));
  return submitJob(submitDepsOf(deps), {
    validation,
    source: { type: "api", ...sourceOf(input.caller) },
    caller: {
      keyId: input.caller.keyId,
      ...(input.caller.budget === undefined ? {} : { budget: input.caller.budget }),
    },
    ...(jobId === undefined ? {} : { jobId }),
    ...(key === undefined ? {} : { idempotencyKey: key }),
    options: input.options,
    ...(materials === undefined ? {} : { materials }),
    ...(input.retryOf === undefined ? {} : { retryOf: input.retryOf }),
  });
}

/** A video create's request checked against the model's rules (an image request is refused here). */
function videoValidation(deps: ResolvedDeps, input: CreateInput): ValidationResult {
  const validation = validate(input.body, validateOptionsOf(deps, input.caller, input.options));
  if (validation.kind === "image") throw wrongEndpoint();
  return validation;
}

/** A repeated idempotency key with a different payload is 409 `idempotency_conflict` (see submitForCaller). */
export async function createVideoJob(
  deps: ResolvedDeps,
  input: CreateInput,
): Promise<{ job: Job; created: boolean }> {
  return submitForCaller(deps, videoValidation(deps, input), input);
}

/** What a create's `?dry_run=true` answers: reelay's own body, not the contract's task. */
export interface DryRun {
  dry_run: true;
  valid: true;
  model: string;
  requested_model: string;
  /** The request as it would be sent: defaults filled in, fitted. */
  request: NonNullable<ValidationResult["normalized"]>;
  adjustments: NonNullable<ValidationResult["adjustments"]>;
  warnings: ValidationResult["warnings"];
  estimate: ReturnType<typeof createdEstimate>;
}

function createdEstimate(
  deps: ResolvedDeps,
  model: string,
  request: NonNullable<ValidationResult["normalized"]>,
) {
  const estimate = estimateOf({ model, request }, deps.prices);
  return {
    usage: usageView(estimate.usage),
    cost: estimate.costMicros === null ? null : fromMicros(estimate.costMicros),
    currency: estimate.currency,
    price_version: estimate.priceVersion,
  };
}

/**
 * A create's checks without the create: the request's rules, the model's lifecycle, whether an
 * upstream account serves it, its upload references; the same 400 a create would answer. Nothing is
 * made, reserved or counted: the key's limits and budgets are for the create itself.
 */
export async function dryRunOf(
  deps: ResolvedDeps,
  validation: ValidationResult,
  caller: Caller,
): Promise<DryRun> {
  const { model, normalized } = validation;
  if (!validation.valid || model === null || normalized === null)
    throw invalidRequest(validation.errors);
  const served = deps.admission.served;
  if (served !== undefined && !served(model))
    throw invalidRequest([
      {
        path: "model",
        code: "no_upstream_account",
        message: `No upstream account of this deployment serves the model ${model} (REELAY_UPSTREAMS models).`,
      },
    ]);
  await checkUploads(deps, validation, caller);
  return {
    dry_run: true,
    valid: true,
    model,
    requested_model: validation.requestedModel ?? model,
    request: normalized,
    adjustments: validation.adjustments ?? [],
    warnings: validation.warnings,
    estimate: createdEstimate(deps, model, normalized),
  };
}

/** POST /v1/video/generations?dry_run=true. */
export function dryRunVideo(deps: ResolvedDeps, input: CreateInput): Promise<DryRun> {
  return dryRunOf(deps, videoValidation(deps, input), input.caller);
}

/** A dry run's answer, with the Deprecation and Sunset headers its create would carry. */
export function answerDryRun(c: Context<ApiEnv>, deps: ResolvedDeps, dryRun: DryRun): Response {
  setModelHeaders(c, deps, { model: dryRun.model, requestedModel: dryRun.requested_model });
  return c.json(dryRun);
}

/**
 * The handler of a contract's JSON create route (video, chat completions): the body and the
 * X-Reelay-* headers read, then the create, or with `?dry_run=true` its dry run.
 */
export function jsonCreate(
  deps: ResolvedDeps,
  create: (deps: ResolvedDeps, input: CreateInput) => Promise<{ job: Job }>,
  dryRun: (deps: ResolvedDeps, input: CreateInput) => Promise<DryRun>,
): Handler<ApiEnv, string, { out: { query: z.output<typeof dryRunQuery> } }> {
  return async (c) => {
    const body = parseJson(await c.req.text());
    const input = { body, ...(await createHeaders(c, deps)) };
    if (c.req.valid("query").dry_run) return answerDryRun(c, deps, await dryRun(deps, input));
    const { job } = await create(deps, input);
    setModelHeaders(c, deps, job);
    return c.json(createdView(job));
  };
}
