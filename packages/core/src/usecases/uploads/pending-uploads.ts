/**
 * Uploads by presigned PUT, for files larger than a request body may be (API Gateway's 10 MB): the
 * caller declares the file, PUTs its bytes straight to the bucket, then completes the upload, which
 * checks them as the multipart form's are checked. Until then nothing usable exists:
 *
 * - `uploads/upl_<ulid>.pending`, an empty marker whose metadata is what was declared (project,
 *   content type, size, sha256), written when the upload is made;
 * - `uploads/upl_<ulid>.staged`, the bytes the presigned PUT stored;
 * - `uploads/upl_<ulid>`, the upload itself, written only by a complete that found the bytes to be
 *   what was declared (a copy of the staged object inside S3, with the upload's metadata).
 *
 * All three lie under uploads/, so the uploads' lifecycle rule (or the local sweep) removes what a
 * caller leaves behind.
 */
import { createHash } from "node:crypto";
import { ReelayError } from "../../domain/errors.ts";
import {
  MAX_UPLOAD_BYTES,
  newUploadId,
  isUploadId,
  type PendingUpload,
  pendingUploadKey,
  stagedUploadKey,
  UPLOAD_CONTENT_TYPES,
  UPLOAD_PUT_TTL_S,
  type Upload,
  uploadKey,
  uploadNotFound,
} from "../../domain/uploads/upload.ts";
import type { Clock, ObjectMetadata, ObjectStorePort, PresignedPut } from "../ports.ts";
import {
  contentTypeOf,
  DAY_MS,
  findUpload,
  refused,
  uploadMetadata,
  type UploadLookupDeps,
  uploadProbe,
} from "./uploads.ts";

export interface PendingUploadDeps {
  objects: Pick<ObjectStorePort, "put" | "head" | "presignPut">;
  now: Clock;
  /** REELAY_UPLOAD_RETENTION_DAYS. */
  retentionDays: number;
}

export interface CompleteUploadDeps {
  objects: Pick<ObjectStorePort, "head" | "getStream" | "copy" | "delete">;
  now: Clock;
}

export interface Declared {
  contentType: string;
  size: number;
  sha256?: string | undefined;
}

/** The presigned PUT of a pending upload, as the caller sends it. */
export interface UploadPut extends PresignedPut {
  expiresAt: string;
}

/** The declared file's kind, or 400 naming the field that is out of bounds. */
function checkDeclared(declared: Declared): PendingUpload["kind"] {
  const kind = UPLOAD_CONTENT_TYPES[declared.contentType];
  if (kind === undefined)
    throw refused(
      "invalid_upload",
      "content_type",
      `\`content_type\` must be one of ${Object.keys(UPLOAD_CONTENT_TYPES).join(", ")}.`,
    );
  const max = MAX_UPLOAD_BYTES[kind];
  if (declared.size > max)
    throw refused("upload_too_large", "size", `\`size\`: ${kind}s are taken up to ${max} bytes.`);
  return kind;
}

/**
 * Makes a pending upload of `project` and the PUT that stores its bytes: the declared length,
 * type (and sha256) are signed in, and the link lasts UPLOAD_PUT_TTL_S.
 */
export async function createPendingUpload(
  deps: PendingUploadDeps,
  input: Declared & { project: string },
): Promise<{ upload: PendingUpload; put: UploadPut }> {
  const kind = checkDeclared(input);
  const now = deps.now();
  const upload: PendingUpload = {
    id: newUploadId(),
    project: input.project,
    kind,
    contentType: input.contentType,
    size: input.size,
    ...(input.sha256 === undefined ? {} : { sha256: input.sha256 }),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + deps.retentionDays * DAY_MS).toISOString(),
  };
  await deps.objects.put(pendingUploadKey(upload.id), new Uint8Array(0), {
    contentType: "application/octet-stream",
    metadata: pendingMetadata(upload),
  });
  const signed = await deps.objects.presignPut(stagedUploadKey(upload.id), {
    contentType: upload.contentType,
    bytes: upload.size,
    ...(upload.sha256 === undefined ? {} : { sha256: upload.sha256 }),
    ttlS: UPLOAD_PUT_TTL_S,
  });
  const expiresAt = new Date(now.getTime() + UPLOAD_PUT_TTL_S * 1000).toISOString();
  return { upload, put: { ...signed, expiresAt } };
}

function pendingMetadata(upload: PendingUpload): ObjectMetadata {
  return {
    project: upload.project,
    kind: upload.kind,
    "content-type": upload.contentType,
    size: String(upload.size),
    ...(upload.sha256 === undefined ? {} : { sha256: upload.sha256 }),
    "created-at": upload.createdAt,
    "expires-at": upload.expiresAt,
  };
}

function pendingOf(id: string, meta: ObjectMetadata): PendingUpload | undefined {
  const { project, kind, size, sha256 } = meta;
  const contentType = meta["content-type"];
  const createdAt = meta["created-at"];
  const expiresAt = meta["expires-at"];
  if (project === undefined || contentType === undefined || size === undefined) return undefined;
  if (createdAt === undefined || expiresAt === undefined) return undefined;
  if (kind !== "image" && kind !== "video") return undefined;
  return {
    id,
    project,
    kind,
    contentType,
    size: Number(size),
    ...(sha256 === undefined ? {} : { sha256 }),
    createdAt,
    expiresAt,
  };
}

/** The pending upload with this id while it lasts (not one completed: see findUpload). */
export async function findPendingUpload(
  deps: UploadLookupDeps,
  id: string,
): Promise<PendingUpload | undefined> {
  // Not an upload's id (a 7,000-character one, say): nothing to look up, and no key S3 refuses.
  if (!isUploadId(id)) return undefined;
  const marker = await deps.objects.head(pendingUploadKey(id));
  const pending = marker === undefined ? undefined : pendingOf(id, marker.metadata ?? {});
  if (pending === undefined || pending.expiresAt <= deps.now().toISOString()) return undefined;
  return pending;
}

/** Reads the staged bytes once, as they stream: their sha256 and what they are. */
async function inspectStaged(
  deps: CompleteUploadDeps,
  pending: PendingUpload,
): Promise<{ sha256: string; contentType: string }> {
  const { body } = await deps.objects.getStream(stagedUploadKey(pending.id));
  const hash = createHash("sha256");
  const probe = await uploadProbe(pending.kind);
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    probe.push(chunk);
  }
  return { sha256: hash.digest("hex"), contentType: contentTypeOf(pending.kind, probe, "file") };
}

/** The staged bytes as the upload, or the 400 that says how they differ from what was declared. */
async function checkStaged(deps: CompleteUploadDeps, pending: PendingUpload): Promise<Upload> {
  const staged = await deps.objects.head(stagedUploadKey(pending.id));
  if (staged === undefined)
    throw new ReelayError(
      "upload_pending",
      `No bytes were PUT for upload ${pending.id} yet: PUT the file to the upload's put.url first.`,
      { status: 409, path: "file" },
    );
  if (staged.bytes !== pending.size)
    throw refused(
      "invalid_upload",
      "file",
      `\`file\` has ${staged.bytes} bytes, not ${pending.size}.`,
    );
  const found = await inspectStaged(deps, pending);
  if (found.contentType !== pending.contentType)
    throw refused(
      "invalid_upload",
      "file",
      `\`file\` is ${found.contentType}, not ${pending.contentType} as declared.`,
    );
  if (pending.sha256 !== undefined && found.sha256 !== pending.sha256)
    throw refused("invalid_upload", "sha256", "`sha256` is not the sha256 of the bytes PUT.");
  const { id, project, kind, size, createdAt, expiresAt } = pending;
  return {
    id,
    project,
    kind,
    sha256: found.sha256,
    contentType: found.contentType,
    size,
    createdAt,
    expiresAt,
  };
}

async function removePending(deps: CompleteUploadDeps, id: string): Promise<void> {
  await deps.objects.delete(stagedUploadKey(id));
  await deps.objects.delete(pendingUploadKey(id));
}

/**
 * Checks a pending upload's bytes and makes it the upload, or refuses them (400, and the staged
 * bytes and the marker are deleted: nothing of it stays usable). Completing an upload already
 * completed answers it again. `project` undefined: the deployment's key, which may complete any
 * project's; another project's is 404 upload_not_found, as an unknown id is.
 */
export async function completeUpload(
  deps: CompleteUploadDeps,
  id: string,
  project: string | undefined,
): Promise<Upload> {
  const visible = (owner: string) => project === undefined || owner === project;
  const done = await findUpload(deps, id);
  if (done !== undefined) {
    if (!visible(done.project)) throw uploadNotFound(id);
    return done;
  }
  const pending = await findPendingUpload(deps, id);
  if (pending === undefined) {
    // A complete beside this one may have made the upload (and removed the marker) since the look
    // above: the upload is made before its marker goes.
    const made = await findUpload(deps, id);
    if (made !== undefined && visible(made.project)) return made;
    throw uploadNotFound(id);
  }
  if (!visible(pending.project)) throw uploadNotFound(id);
  let upload: Upload;
  try {
    upload = await checkStaged(deps, pending);
  } catch (error) {
    // A complete running beside this one may have made the upload and removed the staging first.
    const made = await findUpload(deps, id);
    if (made !== undefined) return made;
    if (error instanceof ReelayError && error.code !== "upload_pending")
      await removePending(deps, id);
    throw error;
  }
  try {
    await deps.objects.copy(stagedUploadKey(id), uploadKey(id), {
      replace: { contentType: upload.contentType, metadata: uploadMetadata(upload) },
    });
  } catch (error) {
    // Two completes that both checked the bytes: the other's copy may have finished and removed
    // the staged bytes before this one's copy read them.
    const made = await findUpload(deps, id);
    if (made !== undefined) return made;
    throw error;
  }
  await removePending(deps, id);
  return upload;
}
