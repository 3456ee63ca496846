/** Where a job's results live in the bucket: `outputs/<jobId>/`. */
import { type MoneyView, moneyView } from "../money/view.ts";
import { SCHEMA_VERSION } from "../schema-version.ts";
import { mapStrings } from "./request.ts";
import type { Job } from "./types.ts";

const IMAGE_EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/jpg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
};

function outputPrefix(jobId: string): string {
  return `outputs/${jobId}/`;
}

export function videoKey(jobId: string): string {
  return `${outputPrefix(jobId)}video.mp4`;
}

/** The video's poster frame. */
export function thumbnailKey(jobId: string): string {
  return `${outputPrefix(jobId)}thumbnail.jpg`;
}

/** The video's frames in one grid image. */
export function spritesheetKey(jobId: string): string {
  return `${outputPrefix(jobId)}spritesheet.jpg`;
}

/** `image-<n>.<ext>`, n from 1, the extension from the served content type (else the URL's, else png). */
export function imageKey(jobId: string, index: number, contentType: string, url: string): string {
  const fromUrl = /\.([a-z0-9]{2,5})$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase();
  const ext = IMAGE_EXTENSIONS[contentType.toLowerCase()] ?? fromUrl ?? "png";
  return `${outputPrefix(jobId)}image-${index + 1}.${ext}`;
}

/** Where a reused output's copy goes: the same name under the reusing job's own prefix. */
export function reusedKey(jobId: string, sourceKey: string): string {
  return `${outputPrefix(jobId)}${sourceKey.slice(sourceKey.lastIndexOf("/") + 1)}`;
}

export function manifestKey(jobId: string): string {
  return `${outputPrefix(jobId)}job.json`;
}

const SIGNED_QUERY =
  /[?&](x-amz-signature|x-amz-security-token|x-amz-credential|signature|sig|token)=/i;

/**
 * The job record as `job.json`. A record holds no secrets by design; the one thing scrubbed here is
 * the query of any signed URL in the request (presigned material URLs carry credentials there). It
 * names its schema version as the record's items do (`schemaVersion`).
 */
export function manifestOf(
  job: Job,
): Omit<Job, "estimate"> & MoneyView & { schemaVersion: number } {
  const scrub = (value: string): string =>
    SIGNED_QUERY.test(value) && /^https?:\/\//i.test(value)
      ? (value.split("?")[0] ?? value)
      : value;
  const { estimate: _recorded, ...record } = job;
  return {
    ...record,
    request: mapStrings(job.request, scrub),
    ...moneyView(job),
    schemaVersion: SCHEMA_VERSION,
  };
}
