/**
 * Uploads: material a caller stores in the bucket (`uploads/upl_<ulid>`) and names anywhere a
 * material URL goes as `upload://upl_<ulid>`. A job's request keeps the reference; the upstream is
 * given a presigned link of the object at its create (usecases/uploads/upload-links.ts).
 */
import { ulid } from "ulid";
import { ReelayError, shownInput } from "../errors.ts";
import { idPattern, idPatternSource } from "../ids.ts";

const UPLOAD_ID_PREFIX = "upl";
export const UPLOAD_SCHEME = "upload://";
/** REELAY_UPLOAD_RETENTION_DAYS when unset: an upload is kept this long after it was made. */
export const DEFAULT_UPLOAD_RETENTION_DAYS = 7;
/** The bucket's folder of uploads (an S3 lifecycle rule expires it on AWS). */
export const UPLOADS_PREFIX = "uploads/upl_";

const UPLOAD_ID = idPattern([UPLOAD_ID_PREFIX]);
const UPLOAD_REF = new RegExp(`^upload://(${idPatternSource([UPLOAD_ID_PREFIX])})$`);

export type UploadKind = "image" | "video";

/**
 * The largest upload of each kind. 20 MB is the only material size the interface gives (a
 * first-frame image, §8); a reference video has none, and 100 MB holds minutes of 1080p.
 */
export const MAX_UPLOAD_BYTES: Readonly<Record<UploadKind, number>> = {
  image: 20 * 1024 * 1024,
  video: 100 * 1024 * 1024,
};

/**
 * The content types an upload may declare for the presigned PUT (POST /v1/uploads with JSON), by
 * kind: what the bytes must turn out to be when it is completed.
 */
export const UPLOAD_CONTENT_TYPES: Readonly<Record<string, UploadKind>> = {
  "image/png": "image",
  "image/jpeg": "image",
  "image/webp": "image",
  "image/gif": "image",
  "video/mp4": "video",
};

/** How long the presigned PUT of a pending upload may be used. */
export const UPLOAD_PUT_TTL_S = 15 * 60;

/** An upload as the API shows it; its S3 object's metadata carries all of it. */
export interface Upload {
  id: string;
  /** The project of the key that made it: only that project's keys may see or use it. */
  project: string;
  kind: UploadKind;
  sha256: string;
  contentType: string;
  size: number;
  createdAt: string;
  expiresAt: string;
}

export function newUploadId(): string {
  return `${UPLOAD_ID_PREFIX}_${ulid()}`;
}

export function isUploadId(id: string): boolean {
  return UPLOAD_ID.test(id);
}

/** The upload id of an `upload://upl_<ulid>` reference, else undefined. */
export function uploadIdOf(url: string): string | undefined {
  return UPLOAD_REF.exec(url)?.[1];
}

export function uploadRef(id: string): string {
  return `${UPLOAD_SCHEME}${id}`;
}

/**
 * An upload made for a presigned PUT and not completed yet: what the caller declared, kept as the
 * metadata of an empty marker object. It names no usable material until it is completed.
 */
export interface PendingUpload {
  id: string;
  project: string;
  kind: UploadKind;
  /** As declared: the bytes must turn out to be this. */
  contentType: string;
  size: number;
  /** Hex sha256 the bytes must have, when declared. */
  sha256?: string;
  createdAt: string;
  expiresAt: string;
}

/** The marker of a pending upload (beside where its upload will be, so the same rules expire it). */
export function pendingUploadKey(id: string): string {
  return `uploads/${id}.pending`;
}

/** Where the presigned PUT stores a pending upload's bytes until they are checked. */
export function stagedUploadKey(id: string): string {
  return `uploads/${id}.staged`;
}

/** The upload's object in the bucket. */
export function uploadKey(id: string): string {
  return `uploads/${id}`;
}

/** The same 404 for an unknown id and another project's upload: a stranger learns nothing. */
export function uploadNotFound(id: string): ReelayError {
  return new ReelayError("upload_not_found", `No upload with id ${shownInput(id)}.`, {
    status: 404,
  });
}
