/**
 * `upload://upl_<ulid>` references in a request: checked when a job is made (each names an upload
 * of the caller's project, of the kind its field takes), and swapped for presigned links only in
 * the body sent to the upstream. The job's record keeps the references: a signed link is a bearer
 * credential, never recorded, logged or put in an event.
 */
import type { Issue } from "../../domain/errors.ts";
import { mapStrings } from "../../domain/jobs/request.ts";
import type { JobRequest } from "../../domain/jobs/request.ts";
import {
  UPLOAD_SCHEME,
  type UploadKind,
  uploadIdOf,
  uploadKey,
} from "../../domain/uploads/upload.ts";
import type { ObjectStorePort } from "../ports.ts";
import { findPendingUpload } from "./pending-uploads.ts";
import { findUpload, type UploadLookupDeps } from "./uploads.ts";

interface FoundRef {
  path: string;
  ref: string;
}

/** Every upload:// string in `body`, with its field path (`frame_images[0].image_url.url`). */
function uploadRefsIn(body: unknown): FoundRef[] {
  const found: FoundRef[] = [];
  const walk = (value: unknown, path: string): void => {
    if (typeof value === "string") {
      if (value.startsWith(UPLOAD_SCHEME)) found.push({ path, ref: value });
    } else if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, `${path}[${i}]`);
    } else if (typeof value === "object" && value !== null) {
      for (const [key, item] of Object.entries(value))
        walk(item, path === "" ? key : `${path}.${key}`);
    }
  };
  walk(body, "");
  return found;
}

function kindOfField(path: string): UploadKind {
  return path.endsWith("video_url") ? "video" : "image";
}

/**
 * The issues of the request's upload references (`unknown_upload` for an unknown id, an expired
 * upload or another project's: the same words, so no one learns which ids exist; `upload_pending`
 * for one of the caller's not completed yet), and the sha256
 * of each known one by its reference (what the job's fingerprint knows the material by).
 * `project` undefined: the deployment's key, which may use any project's upload.
 */
export async function checkUploadRefs(
  deps: UploadLookupDeps,
  body: unknown,
  project: string | undefined,
): Promise<{ issues: Issue[]; digests: Map<string, string> }> {
  const issues: Issue[] = [];
  const digests = new Map<string, string>();
  for (const { path, ref } of uploadRefsIn(body)) {
    const id = uploadIdOf(ref);
    if (id === undefined) continue; // validate() reported its shape
    const upload = await findUpload(deps, id);
    if (upload === undefined && (await isOwnPending(deps, id, project))) {
      issues.push({
        path,
        code: "upload_pending",
        message: `\`${path}\`: upload ${ref} is not completed yet (POST /v1/uploads/${id}/complete).`,
      });
      continue;
    }
    if (upload === undefined || (project !== undefined && upload.project !== project)) {
      issues.push({
        path,
        code: "unknown_upload",
        message: `\`${path}\`: unknown upload ${ref}.`,
      });
      continue;
    }
    const wanted = kindOfField(path);
    if (upload.kind !== wanted) {
      issues.push({
        path,
        code: "upload_kind_mismatch",
        message: `\`${path}\` takes ${wanted} material; ${ref} is ${upload.kind === "image" ? "an image" : "a video"}.`,
      });
      continue;
    }
    digests.set(ref, upload.sha256);
  }
  return { issues, digests };
}

/** Whether `id` is a pending upload the caller may see (another project's is unknown to it). */
async function isOwnPending(
  deps: UploadLookupDeps,
  id: string,
  project: string | undefined,
): Promise<boolean> {
  const pending = await findPendingUpload(deps, id);
  return pending !== undefined && (project === undefined || pending.project === project);
}

/** Whether the request names any upload (a request without one is sent as it is). */
export function hasUploadRefs(request: JobRequest): boolean {
  return uploadRefsIn(request).length > 0;
}

/**
 * The body for the upstream: each upload reference as a GET link signed for `ttlS` seconds. The
 * request itself is not changed.
 */
export async function signUploadRefs(
  objects: Pick<ObjectStorePort, "presignGet">,
  request: JobRequest,
  ttlS: number,
): Promise<JobRequest> {
  const links = new Map<string, string>();
  for (const { ref } of uploadRefsIn(request)) {
    const id = uploadIdOf(ref);
    if (id !== undefined && !links.has(ref))
      links.set(ref, await objects.presignGet(uploadKey(id), ttlS));
  }
  return mapStrings(request, (value) => links.get(value) ?? value);
}
