/**
 * Uploads: material from the caller's disk, stored in the bucket and named `upload://upl_<ulid>`
 * wherever a material URL goes. The bytes come in a multipart body, or, past what a request body
 * may carry, by a presigned PUT to the bucket that POST /v1/uploads/{id}/complete then checks. An
 * upload belongs to the project of the key that made it, like a job: another project's is answered
 * 404 `upload_not_found`, as an unknown id is.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import {
  DEFAULT_UPLOAD_RETENTION_DAYS,
  MAX_UPLOAD_BYTES,
  type PendingUpload,
  ReelayError,
  type Upload,
  uploadNotFound,
  uploadRef,
} from "@reelay/core/domain";
import {
  completeUpload,
  createPendingUpload,
  createUpload,
  findPendingUpload,
  findUpload,
  type UploadPut,
} from "@reelay/core/usecases";
import type { ApiEnv, Caller, ResolvedDeps } from "../../api-deps.ts";
import { isAdmin, projectOfCaller } from "../../auth.ts";
import { jsonBodyLimit } from "../../body.ts";
import { readMultipart } from "../../multipart.ts";
import { readDeclaredFile } from "./declared.ts";

/** The largest upload and room for the multipart framing around it. */
export const MAX_UPLOAD_BODY_BYTES = MAX_UPLOAD_BYTES.video + 64 * 1024;

/** An upload as the API answers it. */
function uploadView(upload: Upload) {
  return {
    id: upload.id,
    url: uploadRef(upload.id),
    status: "ready",
    sha256: upload.sha256,
    content_type: upload.contentType,
    size: upload.size,
    created_at: upload.createdAt,
    expires_at: upload.expiresAt,
  };
}

/** A pending upload as the API answers it: with its PUT when it was just made. */
function pendingView(upload: PendingUpload, put?: UploadPut) {
  return {
    id: upload.id,
    url: uploadRef(upload.id),
    status: "pending",
    ...(upload.sha256 === undefined ? {} : { sha256: upload.sha256 }),
    content_type: upload.contentType,
    size: upload.size,
    created_at: upload.createdAt,
    expires_at: upload.expiresAt,
    ...(put === undefined
      ? {}
      : { put: { url: put.url, method: "PUT", headers: put.headers, expires_at: put.expiresAt } }),
  };
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/json\b/i.test(contentType?.trim() ?? "");
}

/** A JSON declaration is a few fields (16 KiB is plenty); a multipart body carries the file. */
function uploadBodyLimit(): MiddlewareHandler {
  const json = jsonBodyLimit(16 * 1024);
  const multipart = multipartBodyLimit();
  return (c, next) => (isJson(c.req.header("content-type")) ? json(c, next) : multipart(c, next));
}

function multipartBodyLimit() {
  return bodyLimit({
    maxSize: MAX_UPLOAD_BODY_BYTES,
    onError: () => {
      throw new ReelayError(
        "upload_too_large",
        `\`file\`: uploads are taken up to ${MAX_UPLOAD_BYTES.video} bytes (videos; images ${MAX_UPLOAD_BYTES.image}).`,
        { status: 400, path: "file" },
      );
    },
  });
}

/** The `file` part of a multipart/form-data body, as bytes. */
async function readFile(request: Request): Promise<Uint8Array> {
  const form = await readMultipart(
    request,
    "POST /v1/uploads takes multipart/form-data with the material as the file field `file`.",
  );
  const file = form.get("file");
  if (file === null || typeof file === "string") {
    throw new ReelayError("invalid_request", "Send the material as the file field `file`.", {
      status: 400,
      path: "file",
    });
  }
  return new Uint8Array(await file.arrayBuffer());
}

/** The project whose uploads the caller may see; undefined: the admin, who sees every project's. */
function ownProject(caller: Caller): string | undefined {
  return isAdmin(caller) ? undefined : projectOfCaller(caller);
}

/** The upload's view (or its pending one's) if the caller may see it. */
async function visibleView(deps: ResolvedDeps, caller: Caller, id: string) {
  const project = ownProject(caller);
  const visible = (owner: string) => project === undefined || owner === project;
  const upload = await findUpload(deps, id);
  if (upload !== undefined) {
    if (!visible(upload.project)) throw uploadNotFound(id);
    return uploadView(upload);
  }
  const pending = await findPendingUpload(deps, id);
  if (pending === undefined || !visible(pending.project)) throw uploadNotFound(id);
  return pendingView(pending);
}

export function uploadRoutes(deps: ResolvedDeps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const retentionDays = deps.uploadRetentionDays ?? DEFAULT_UPLOAD_RETENTION_DAYS;

  routes.post("/", uploadBodyLimit(), async (c) => {
    if (isJson(c.req.header("content-type"))) {
      const declared = readDeclaredFile(await c.req.text());
      const { upload, put } = await createPendingUpload(
        { objects: deps.objects, now: deps.now, retentionDays },
        { ...declared, project: projectOfCaller(c.get("caller")) },
      );
      return c.json(pendingView(upload, put), 201);
    }
    const bytes = await readFile(c.req.raw);
    const upload = await createUpload(
      { objects: deps.objects, now: deps.now, retentionDays },
      { bytes, project: projectOfCaller(c.get("caller")), path: "file" },
    );
    return c.json(uploadView(upload), 201);
  });

  routes.get("/:id", async (c) =>
    c.json(await visibleView(deps, c.get("caller"), c.req.param("id"))),
  );

  routes.post("/:id/complete", async (c) => {
    const upload = await completeUpload(deps, c.req.param("id"), ownProject(c.get("caller")));
    return c.json(uploadView(upload));
  });

  return routes;
}
