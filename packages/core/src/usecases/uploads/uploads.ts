/**
 * Uploads kept as one S3 object each, `uploads/upl_<ulid>`, whose metadata is the upload's record
 * (project, kind, sha256, made and expiry times): one write makes both, and S3's lifecycle rule (or
 * the local sweep) removes both, so no table item can outlive its bytes or point at nothing.
 */
import { createHash } from "node:crypto";
import { ReelayError } from "../../domain/errors.ts";
import type { MediaProbe } from "../../domain/media/probe.ts";
import {
  isUploadId,
  MAX_UPLOAD_BYTES,
  newUploadId,
  type Upload,
  type UploadKind,
  uploadKey,
} from "../../domain/uploads/upload.ts";
import type { Clock, ObjectMetadata, ObjectStorePort } from "../ports.ts";

export const DAY_MS = 86_400_000;
/** What each image format that image-size names is stored as; any other format is refused. */
const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
};
/** The box types an ISO BMFF (MP4) file may open with. */
const FIRST_BOXES = new Set(["ftyp", "styp", "moov", "mdat", "free", "skip", "wide"]);

/** What looking an upload up takes: its object's head. */
export interface UploadLookupDeps {
  objects: Pick<ObjectStorePort, "head">;
  now: Clock;
}

export interface UploadDeps {
  objects: Pick<ObjectStorePort, "put" | "head">;
  now: Clock;
  /** REELAY_UPLOAD_RETENTION_DAYS. */
  retentionDays: number;
}

export function refused(
  code: "invalid_upload" | "upload_too_large",
  path: string,
  message: string,
): ReelayError {
  return new ReelayError(code, message, { status: 400, path });
}

function looksLikeMp4(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && FIRST_BOXES.has(String.fromCharCode(...bytes.subarray(4, 8)));
}

/**
 * What the bytes are, read from the bytes (never from a name or a claimed type): an image
 * image-size reads, or an MP4 mp4box parses with a video track. `path` names the field.
 */
async function inspectUpload(
  bytes: Uint8Array,
  path: string,
): Promise<{ kind: UploadKind; contentType: string }> {
  const kind: UploadKind = looksLikeMp4(bytes) ? "video" : "image";
  const max = MAX_UPLOAD_BYTES[kind];
  if (bytes.length > max)
    throw refused("upload_too_large", path, `\`${path}\`: ${kind}s are taken up to ${max} bytes.`);
  const probe = await uploadProbe(kind);
  probe.push(bytes);
  return { kind, contentType: contentTypeOf(kind, probe, path) };
}

/** A probe of `kind` that reads the bytes as they are pushed (see domain/media/probe.ts). */
export async function uploadProbe(kind: UploadKind): Promise<MediaProbe> {
  const { mediaProbe } = await import("../../domain/media/probe.ts");
  return mediaProbe(kind);
}

/**
 * The content type the bytes pushed through `probe` are, or 400 invalid_upload at `path` when
 * they are not a taken image or an MP4 video.
 */
export function contentTypeOf(kind: UploadKind, probe: MediaProbe, path: string): string {
  let codec: string;
  try {
    codec = probe.finish().codec;
  } catch {
    throw refused(
      "invalid_upload",
      path,
      `\`${path}\` is not a PNG, JPEG, WEBP or GIF image or an MP4 video.`,
    );
  }
  const contentType = kind === "video" ? "video/mp4" : IMAGE_TYPES[codec];
  if (contentType === undefined)
    throw refused("invalid_upload", path, `\`${path}\`: ${codec} images are not taken.`);
  return contentType;
}

/** Checks the bytes and stores them as a new upload of `project`. */
export async function createUpload(
  deps: UploadDeps,
  input: { bytes: Uint8Array; project: string; path: string },
): Promise<Upload> {
  const { kind, contentType } = await inspectUpload(input.bytes, input.path);
  const now = deps.now();
  const upload: Upload = {
    id: newUploadId(),
    project: input.project,
    kind,
    sha256: createHash("sha256").update(input.bytes).digest("hex"),
    contentType,
    size: input.bytes.length,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + deps.retentionDays * DAY_MS).toISOString(),
  };
  await deps.objects.put(uploadKey(upload.id), input.bytes, {
    contentType,
    metadata: uploadMetadata(upload),
  });
  return upload;
}

/** The upload's record, as its object's metadata. */
export function uploadMetadata(upload: Upload): ObjectMetadata {
  return {
    project: upload.project,
    kind: upload.kind,
    sha256: upload.sha256,
    "created-at": upload.createdAt,
    "expires-at": upload.expiresAt,
  };
}

function uploadOf(
  id: string,
  object: { bytes: number; contentType: string; metadata?: ObjectMetadata },
): Upload | undefined {
  const meta = object.metadata ?? {};
  const { project, kind, sha256 } = meta;
  const createdAt = meta["created-at"];
  const expiresAt = meta["expires-at"];
  if (project === undefined || sha256 === undefined || createdAt === undefined) return undefined;
  if (expiresAt === undefined || (kind !== "image" && kind !== "video")) return undefined;
  return {
    id,
    project,
    kind,
    sha256,
    contentType: object.contentType,
    size: object.bytes,
    createdAt,
    expiresAt,
  };
}

/**
 * The upload with this id while it lasts: one past its expiry (which the lifecycle rule removes
 * within a day or so) is gone already for everyone.
 */
export async function findUpload(deps: UploadLookupDeps, id: string): Promise<Upload | undefined> {
  if (!isUploadId(id)) return undefined;
  const object = await deps.objects.head(uploadKey(id));
  const upload = object === undefined ? undefined : uploadOf(id, object);
  if (upload === undefined || upload.expiresAt <= deps.now().toISOString()) return undefined;
  return upload;
}
