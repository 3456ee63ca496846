/**
 * POST /v1/images/edits mapped to the unified contract (docs/contract.md §4.5): the uploads become
 * `image_config.reference_images` of a chat-form image request. validate() wants public HTTPS
 * URLs, so the uploads go in as bare names and through the drops' placeholder mechanism: judged
 * with placeholders, then given presigned URLs of the stored objects.
 */
import { createHash } from "node:crypto";
import { replacePlaceholders, withPlaceholders } from "@reelay/core/usecases";
import {
  newJobId,
  type Job,
  defaultCatalog,
  invalidRequest,
  ReelayError,
  validate,
  type ImageModelSpec,
} from "@reelay/core/domain";
import { type DryRun, dryRunOf, submitForCaller, type CreateInput } from "./create.ts";
import type { ResolvedDeps } from "./api-deps.ts";
import { idempotentJobId } from "./idempotency.ts";
import { validateOptionsOf } from "./model-choice.ts";
import type { EditForm } from "./multipart.ts";

/** The catalog's image model. */
const DEFAULT_EDIT_MODEL = "deltaq2-image";
/** The upstream fetches references when the task is created, which retries and queueing may delay. */
const REFERENCE_URL_TTL_S = 6 * 3600;
/** Smallest image_size tier that covers the longest side asked for. */
const SIZE_TIERS: { upTo: number; value: string }[] = [
  { upTo: 1920, value: "1080p" },
  { upTo: 2560, value: "2K" },
  { upTo: Infinity, value: "4K" },
];

function ratioOf(text: string): number | undefined {
  const match = /^(\d+):(\d+)$/.exec(text);
  return match === null ? undefined : Number(match[1]) / Number(match[2]);
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * OpenAI's `size` (WIDTHxHEIGHT, auto, or one of the model's image_size tiers) as image_config: the model's listed aspect ratio closest
 * to the size's, and the image_size tier that covers it when the model offers tiers.
 */
export function sizeToImageConfig(
  size: string,
  spec: ImageModelSpec | undefined,
): { aspect_ratio?: string; image_size?: string } {
  if (size === "auto") return { aspect_ratio: "auto" };
  const offered = spec?.imageSizes.flatMap((rule) => rule.values) ?? [];
  // The model's own tier names (1080p, 2K, 4K) are taken as they are.
  const named = offered.find((value) => value.toLowerCase() === size.toLowerCase());
  if (named !== undefined) return { image_size: named };
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(size);
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (match === null || width === 0 || height === 0) {
    throw new ReelayError(
      "invalid_request",
      `\`size\` must be WIDTHxHEIGHT (e.g. 1024x1024), auto${offered.length > 0 ? ` or one of ${offered.join(", ")}` : ""}, got "${size.slice(0, 40)}".`,
      { status: 400, path: "size" },
    );
  }
  const wanted = Math.log(width / height);
  const listed = (spec?.aspectRatios.flatMap((rule) => rule.values) ?? []).flatMap((value) => {
    const ratio = ratioOf(value);
    return ratio === undefined ? [] : [{ value, distance: Math.abs(Math.log(ratio) - wanted) }];
  });
  const closest = listed.sort((a, b) => a.distance - b.distance)[0]?.value;
  const divisor = gcd(width, height);
  const aspect_ratio = closest ?? `${width / divisor}:${height / divisor}`;
  const tier = SIZE_TIERS.find((t) => Math.max(width, height) <= t.upTo)?.value;
  return tier !== undefined && offered.includes(tier)
    ? { aspect_ratio, image_size: tier }
    : { aspect_ratio };
}

/** The model's spec, an alias followed (validate() resolves it again, with the lifecycle). */
function imageSpec(deps: ResolvedDeps, model: string): ImageModelSpec | undefined {
  const spec = (deps.catalog ?? defaultCatalog).resolve(model, deps.now())?.spec;
  return spec?.kind === "image" ? spec : undefined;
}

/**
 * The chat-form request for an edit, its references as bare names `ref-<n>-<sha256 prefix>.<ext>`:
 * the content in the name makes a repeated idempotency key with other images a different request
 * (409), and keeps such a repeat from overwriting the first job's uploads.
 */
function editRequest(
  form: EditForm,
  spec: ImageModelSpec | undefined,
  model: string,
): {
  body: Record<string, unknown>;
  uploads: { name: string; image: EditForm["images"][number]; sha256: string }[];
} {
  const uploads = form.images.map((image, i) => {
    const sha256 = createHash("sha256").update(image.bytes).digest("hex");
    return { name: `ref-${i + 1}-${sha256.slice(0, 16)}.${image.ext}`, image, sha256 };
  });
  const image_config = {
    reference_images: uploads.map(({ name }, i) => ({
      type: "url",
      url: name,
      text: `image ${i + 1} to edit`,
    })),
    output_format: "url",
    ...(form.size === undefined ? {} : sizeToImageConfig(form.size, spec)),
  };
  const body = {
    model,
    messages: [{ role: "user", content: form.prompt }],
    modalities: ["image", "text"],
    image_config,
    ...(form.n === undefined ? {} : { output_image_count: form.n }),
  };
  return { body, uploads };
}

/** An edit's request checked, its images as their bare names (editRequest). */
function editValidation(deps: ResolvedDeps, form: EditForm, input: Omit<CreateInput, "body">) {
  if (form.responseFormat !== undefined && form.responseFormat !== "url") {
    throw new ReelayError(
      "unsupported_response_format",
      `response_format "${form.responseFormat.slice(0, 40)}" is not offered: reelay answers with URLs of durable S3 copies; use response_format=url (or leave it out).`,
      {
        status: 400,
        path: "response_format",
      },
    );
  }
  const model = form.model ?? DEFAULT_EDIT_MODEL;
  const { body, uploads } = editRequest(form, imageSpec(deps, model), model);
  const validation = validate(
    withPlaceholders(body).body,
    validateOptionsOf(deps, input.caller, input.options),
  );
  return { validation, uploads };
}

/**
 * POST /v1/images/edits?dry_run=true: nothing is stored, so the request shown names each image by
 * its bare name, where the create puts a presigned URL of its stored copy.
 */
export function dryRunEdit(
  deps: ResolvedDeps,
  form: EditForm,
  input: Omit<CreateInput, "body">,
): Promise<DryRun> {
  const { validation, uploads } = editValidation(deps, form, input);
  const names = new Map(uploads.map(({ name }) => [name, name]));
  const normalized = replacePlaceholders(validation.normalized, names);
  return dryRunOf(deps, { ...validation, normalized }, input.caller);
}

export async function createEditJob(
  deps: ResolvedDeps,
  form: EditForm,
  input: Omit<CreateInput, "body">,
): Promise<{ job: Job; created: boolean }> {
  const { validation, uploads } = editValidation(deps, form, input);
  if (!validation.valid) throw invalidRequest(validation.errors);

  const key = input.idempotencyKey;
  const jobId =
    key === undefined ? newJobId("image") : idempotentJobId("image", input.caller.keyId, key);
  // A repeat of the key answers with the first job, whose uploads are stored already; its URLs
  // are still signed, so the repeat's request matches the first one's.
  const repeat = key !== undefined && (await deps.jobs.get(jobId)) !== undefined;
  const urls = new Map<string, string>();
  // The fingerprint knows each upload by its bytes: its URL names this job's own copy.
  const materials = new Map<string, string>();
  await Promise.all(
    uploads.map(async ({ name, image, sha256 }) => {
      const objectKey = `uploads/${jobId}/${name}`;
      if (!repeat)
        await deps.objects.put(objectKey, image.bytes, { contentType: image.contentType });
      const url = await deps.objects.presignGet(objectKey, REFERENCE_URL_TTL_S);
      urls.set(name, url);
      materials.set(url, sha256);
    }),
  );
  const normalized = replacePlaceholders(validation.normalized, urls);
  return submitForCaller(deps, { ...validation, normalized }, { ...input, jobId, materials });
}
