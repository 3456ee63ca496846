/**
 * A file that landed in `inbox/` becomes jobs, or lands in `rejected/` with a readable error file,
 * or both (a .jsonl with some bad lines). Nothing is lost and nothing is doubled: job ids derive
 * from bucket, key, etag and entry, so a second notification of the same object (S3 delivers at
 * least once) or the same file dropped again finds the jobs already made.
 */
import type { ObjectStorePort } from "../ports.ts";
import type { Readable } from "node:stream";
import type { Catalog } from "../../domain/catalog/types.ts";
import { isReelayError, ReelayError, type Issue } from "../../domain/errors.ts";
import { type SubmitDeps, submitJob } from "../jobs/submit-job.ts";
import { jobIdFrom } from "../../domain/jobs/ids.ts";
import {
  batchIdFrom,
  type CheckedLine,
  createBatch,
  type CreateBatchDeps,
} from "../batches/create-batch.ts";
import type { JobSource } from "../../domain/jobs/types.ts";
import { OBJECT_VERSION_FIELD, SCHEMA_VERSION } from "../../domain/schema-version.ts";
import { type ValidationResult, validate } from "../../domain/validate/validate-request.ts";
import { replacePlaceholders, withPlaceholders } from "./material.ts";
import {
  classifyDropKey,
  entryLocation,
  parseDropFile,
  type DropEntry,
  type DropIssue,
} from "./parse.ts";

export const INBOX_PREFIX = "inbox/";
const REJECTED_PREFIX = "rejected/";
/** Prompt files are small; a larger one is refused before it is read into memory. */
export const MAX_DROP_BYTES = 10 * 1024 * 1024;
/** Presigned material URLs must outlive the longest job (15 min deadline) with a wide margin. */
const MATERIAL_URL_TTL_S = 6 * 3600;

export interface DropDeps {
  objects: ObjectStorePort;
  /** What each entry's submitJob needs: a single request's job goes into the admission queue. */
  submit: SubmitDeps;
  defaultModel: string;
  catalog?: Catalog;
  /** When given, a file of more than one request becomes a batch (its jobs queued at low priority). */
  batches?: Omit<CreateBatchDeps, "submit">;
}

export interface DropOutcome {
  key: string;
  /** The batch a file of more than one request became. */
  batchId?: string;
  /** material and objects outside inbox/ are left alone */
  status: "ignored" | "accepted" | "rejected" | "partly_rejected";
  jobs: { id: string; created: boolean; entry: string }[];
  errors: DropIssue[];
  rejectedKey?: string;
}

export async function ingestDrop(deps: DropDeps, key: string): Promise<DropOutcome> {
  const type = classifyDropKey(key);
  // A key ending in "/" is the folder marker an S3 console makes, not a file anyone dropped.
  if (!key.startsWith(INBOX_PREFIX) || key.endsWith("/") || type === "material")
    return { key, status: "ignored", jobs: [], errors: [] };

  const head = await deps.objects.head(key);
  // Deleted between the notification and now: nothing to do, and nothing was lost by us.
  if (head === undefined) return { key, status: "ignored", jobs: [], errors: [] };
  const etag = (head.etag ?? "").replace(/"/g, "");

  // The bytes as dropped (undefined when too large to read), so a rejected file is kept exactly.
  let bytes: Buffer | undefined;
  const errors: DropIssue[] = [];
  if (head.bytes > MAX_DROP_BYTES) {
    errors.push({
      path: "",
      code: "drop_file_too_large",
      message: `Prompt files may be at most ${MAX_DROP_BYTES / 1024 / 1024} MiB; this one is ${head.bytes} bytes.`,
    });
  } else {
    bytes = await readBytes((await deps.objects.getStream(key)).body);
  }
  const text = bytes?.toString("utf8") ?? "";

  const parsed =
    errors.length > 0
      ? { entries: [], errors: [] }
      : parseDropFile(key, text, { defaultModel: deps.defaultModel });
  errors.push(...parsed.errors);
  const jobs: DropOutcome["jobs"] = [];
  let batchId: string | undefined;
  if (deps.batches !== undefined && parsed.entries.length > 1) {
    batchId = batchIdFrom([deps.objects.bucket, key, etag]);
    const made = await queueFullAsIssue(
      entriesToBatch({ ...deps, batches: deps.batches }, key, batchId, parsed.entries),
    );
    if ("errors" in made) errors.push(...made.errors);
    if ("jobs" in made) jobs.push(...made.jobs);
    else batchId = undefined;
  } else {
    for (const entry of parsed.entries) {
      const made = await queueFullAsIssue(entryToJob(deps, key, etag, entry), entry);
      if ("errors" in made) errors.push(...made.errors);
      else jobs.push(made);
    }
  }
  const batch = batchId === undefined ? {} : { batchId };

  if (errors.length === 0) return { key, ...batch, status: "accepted", jobs, errors };
  // Report in file order, whichever stage found the problem.
  errors.sort((a, b) => (a.line ?? a.index ?? -1) - (b.line ?? b.index ?? -1));
  const rejectedKey = await reject(deps.objects, key, bytes, head.contentType, errors, jobs);
  return {
    key,
    ...batch,
    status: jobs.length > 0 ? "partly_rejected" : "rejected",
    jobs,
    errors,
    rejectedKey,
  };
}

/**
 * The deployment's max_queued refusing a drop (429 queue_full elsewhere) is the drop's error, in
 * its rejected file; anything else still goes up, so the notification is tried again.
 */
async function queueFullAsIssue<T>(
  making: Promise<T>,
  entry?: DropEntry,
): Promise<T | { errors: DropIssue[] }> {
  try {
    return await making;
  } catch (error) {
    if (!isReelayError(error, "queue_full")) throw error;
    const at = entry === undefined ? {} : { line: entry.line, index: entry.index };
    return { errors: [{ path: "", code: "queue_full", message: error.message, ...at }] };
  }
}

/** An entry checked: its validation with material links filled in, or its located errors. */
async function checkEntry(
  deps: DropDeps,
  key: string,
  entry: DropEntry,
): Promise<{ validation: ValidationResult } | { errors: DropIssue[] }> {
  const where = {
    ...(entry.line === undefined ? {} : { line: entry.line }),
    ...(entry.index === undefined ? {} : { index: entry.index }),
  };
  const located = (issues: Issue[]): DropIssue[] => issues.map((issue) => ({ ...where, ...issue }));

  const { body, material } = withPlaceholders(entry.body);
  const verdict = validate(body, deps.catalog === undefined ? {} : { catalog: deps.catalog });
  const folder = key.slice(0, key.lastIndexOf("/") + 1);
  const urls = new Map<string, string>();
  const missing: Issue[] = [];
  for (const { path, name } of material) {
    if (urls.has(name)) continue;
    const object = await deps.objects.head(folder + name);
    if (object === undefined) {
      missing.push({
        path,
        code: "material_not_found",
        message: `"${name}" was not found beside the prompt file; upload ${folder}${name} first, then the prompt file.`,
      });
    } else {
      urls.set(name, await deps.objects.presignGet(folder + name, MATERIAL_URL_TTL_S));
    }
  }
  if (!verdict.valid || missing.length > 0)
    return { errors: located([...verdict.errors, ...missing]) };
  return { validation: { ...verdict, normalized: replacePlaceholders(verdict.normalized, urls) } };
}

function sourceOf(deps: DropDeps, key: string, entry: DropEntry): JobSource {
  return {
    type: "drop",
    bucket: deps.objects.bucket,
    key,
    ...(entry.line === undefined ? {} : { line: entry.line }),
  };
}

/** A file of several requests: one batch, every valid entry a job of it, every bad one a rejected line. */
async function entriesToBatch(
  deps: DropDeps & { batches: Omit<CreateBatchDeps, "submit"> },
  key: string,
  batchId: string,
  entries: DropEntry[],
): Promise<{ jobs: DropOutcome["jobs"]; errors: DropIssue[] }> {
  const errors: DropIssue[] = [];
  const lines: CheckedLine[] = [];
  for (const entry of entries) {
    const checked = await checkEntry(deps, key, entry);
    const line = entry.line ?? (entry.index ?? 0) + 1;
    if ("errors" in checked) errors.push(...checked.errors);
    lines.push({ line, source: sourceOf(deps, key, entry), ...checked });
  }
  const { created } = await createBatch(
    { ...deps.batches, submit: deps.submit },
    {
      id: batchId,
      source: { type: "drop", bucket: deps.objects.bucket, key },
      options: { priority: "low" },
      lines,
    },
  );
  const jobs = entries.flatMap((entry, i) => {
    const checked = lines[i];
    if (checked?.validation === undefined) return [];
    const id = jobIdFrom(checked.validation.kind ?? "video", [batchId, checked.line]);
    return [{ id, created, entry: entryLocation(entry) }];
  });
  return { jobs, errors };
}

async function entryToJob(
  deps: DropDeps,
  key: string,
  etag: string,
  entry: DropEntry,
): Promise<{ id: string; created: boolean; entry: string } | { errors: DropIssue[] }> {
  const checked = await checkEntry(deps, key, entry);
  if ("errors" in checked) return checked;
  const entryNumber = entry.line ?? entry.index ?? 0;
  const verdict = checked.validation;
  // Nobody waits for a drop's answer: its budget is reserved at admission, like a batch line's.
  // A repeated notification finds the job made the first time and queues it again only if it
  // never was (a crash between the two writes); queueing is idempotent.
  const { job, created } = await submitJob(deps.submit, {
    validation: verdict,
    source: sourceOf(deps, key, entry),
    jobId: jobIdFrom(verdict.kind ?? "video", [deps.objects.bucket, key, etag, entryNumber]),
  });
  return { id: job.id, created, entry: entryLocation(entry) };
}

async function reject(
  objects: ObjectStorePort,
  key: string,
  bytes: Buffer | undefined,
  contentType: string,
  errors: DropIssue[],
  jobs: DropOutcome["jobs"],
): Promise<string> {
  const name = key.slice(INBOX_PREFIX.length);
  const rejectedKey = REJECTED_PREFIX + name;
  await objects.putJson(`${rejectedKey}.error.json`, {
    file: key,
    message: summary(errors),
    errors: errors.map((error) => ({
      ...error,
      where: [entryLocation(error), error.path].filter(Boolean).join(": ") || "(file)",
    })),
    accepted_jobs: jobs.map((job) => ({ id: job.id, entry: job.entry })),
    [OBJECT_VERSION_FIELD]: SCHEMA_VERSION,
  });
  // Kept byte for byte (binary, or not UTF-8, included); one too large to read is streamed across.
  if (bytes !== undefined) await objects.put(rejectedKey, bytes, { contentType });
  else
    await objects.uploadStream(rejectedKey, (await objects.getStream(key)).body, { contentType });
  await objects.delete(key);
  return rejectedKey;
}

function summary(errors: DropIssue[]): string {
  const first = errors[0];
  if (first === undefined) return "";
  const where = [entryLocation(first), first.path].filter(Boolean).join(", ");
  const more = errors.length > 1 ? ` (+${errors.length - 1} more)` : "";
  return `${where ? `${where}: ` : ""}${first.message}${more}`;
}

async function readBytes(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > MAX_DROP_BYTES)
      throw new ReelayError(
        "drop_file_too_large",
        "The prompt file grew past the size limit while it was read.",
      );
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
