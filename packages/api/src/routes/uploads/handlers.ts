/**
 * Uploads: material from the caller's disk, stored in the bucket and named `upload://upl_<ulid>`
 * wherever a material URL goes. An upload belongs to the project of the key that made it, like a
 * job: another project's is answered 404 `upload_not_found`, as an unknown id is.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import {
  DEFAULT_UPLOAD_RETENTION_DAYS,
  MAX_UPLOAD_BYTES,
  ReelayError,
  type Upload,
  uploadNotFound,
  uploadRef,
} from "@reelay/core/domain";
import { createUpload, findUpload } from "@reelay/core/usecases";
import type { ApiEnv, Caller, ResolvedDeps } from "../../api-deps.ts";
import { isAdmin, projectOfCaller } from "../../auth.ts";
import { readMultipart } from "../../multipart.ts";

/** The largest upload and room for the multipart framing around it. */
export const MAX_UPLOAD_BODY_BYTES = MAX_UPLOAD_BYTES.video + 64 * 1024;

/** An upload as the API answers it. */
function uploadView(upload: Upload) {
  return {
    id: upload.id,
    url: uploadRef(upload.id),
    sha256: upload.sha256,
    content_type: upload.contentType,
    size: upload.size,
    created_at: upload.createdAt,
    expires_at: upload.expiresAt,
  };
}

function uploadBodyLimit() {
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

/** The upload if the caller may see it: the admin sees every project's. */
async function visibleUpload(deps: ResolvedDeps, caller: Caller, id: string): Promise<Upload> {
  const upload = await findUpload(deps, id);
  if (upload === undefined) throw uploadNotFound(id);
  if (!isAdmin(caller) && upload.project !== projectOfCaller(caller)) throw uploadNotFound(id);
  return upload;
}

export function uploadRoutes(deps: ResolvedDeps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const retentionDays = deps.uploadRetentionDays ?? DEFAULT_UPLOAD_RETENTION_DAYS;

  routes.post("/", uploadBodyLimit(), async (c) => {
    const bytes = await readFile(c.req.raw);
    const upload = await createUpload(
      { objects: deps.objects, now: deps.now, retentionDays },
      { bytes, project: projectOfCaller(c.get("caller")), path: "file" },
    );
    return c.json(uploadView(upload), 201);
  });

  routes.get("/:id", async (c) => {
    const upload = await visibleUpload(deps, c.get("caller"), c.req.param("id"));
    return c.json(uploadView(upload));
  });

  return routes;
}
