/**
 * uploads.create: small files go as one multipart POST /v1/uploads; larger ones (API Gateway takes
 * request bodies up to 10 MB) as a presigned PUT: declare the file, PUT its bytes straight to the
 * bucket, then complete the upload, which checks them. Either way the caller gets the upload.
 */
import type { Client } from "openapi-fetch";
import { errorFromResponse, ReelayError, unreachable } from "./errors.ts";
import type { paths } from "./schema.ts";
import type { Upload } from "./types.ts";

type Api = Client<paths>;
type Fetch = (request: Request) => Promise<Response>;

/** Files larger than this go by presigned PUT: under API Gateway's 10 MB body limit, with room. */
export const PUT_ABOVE_BYTES = 8 * 1024 * 1024;

export interface UploadOptions {
  /** The file name sent with the bytes (reelay goes by the bytes, not the name). */
  name?: string | undefined;
  /**
   * `multipart`: one POST with the bytes; `put`: a presigned PUT to the bucket, then complete.
   * Unset: `put` above PUT_ABOVE_BYTES.
   */
  method?: "multipart" | "put" | undefined;
  signal?: AbortSignal | undefined;
}

/** The media types reelay takes, told by their first bytes as reelay tells them. */
function sniffedType(head: Uint8Array): string | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head[0] === 0x89 && ascii(1, 4) === "PNG") return "image/png";
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  if (ascii(0, 4) === "GIF8") return "image/gif";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  if (["ftyp", "styp", "moov", "mdat", "free", "skip", "wide"].includes(ascii(4, 8)))
    return "video/mp4";
  return undefined;
}

function hex(digest: ArrayBuffer): string {
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function postUpload(api: Api, blob: Blob, given: UploadOptions): Promise<Upload> {
  const form = new FormData();
  form.append("file", blob, given.name ?? (blob instanceof File ? blob.name : "upload"));
  const { data } = await api.POST("/v1/uploads", {
    body: form as never,
    bodySerializer: (body) => body,
    signal: given.signal,
  });
  return data as Upload;
}

/** PUTs the bytes where the pending upload says, with its headers and no reelay key. */
async function putBytes(fetcher: Fetch, put: PendingPut, bytes: Uint8Array, signal?: AbortSignal) {
  const request = new Request(put.url, {
    method: put.method,
    headers: put.headers,
    body: bytes as Uint8Array<ArrayBuffer>,
    ...(signal === undefined ? {} : { signal }),
  });
  const response = await fetcher(request).catch((cause: unknown) => {
    throw unreachable(new URL(put.url).origin, cause);
  });
  if (!response.ok) throw await errorFromResponse(response);
  await response.body?.cancel();
}

interface PendingPut {
  url: string;
  method: string;
  headers: Record<string, string>;
}

async function putUpload(
  api: Api,
  fetcher: Fetch,
  blob: Blob,
  given: UploadOptions,
): Promise<Upload> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const contentType =
    sniffedType(bytes.subarray(0, 12)) ?? (blob.type || "application/octet-stream");
  const sha256 = hex(await crypto.subtle.digest("SHA-256", bytes));
  const { data } = await api.POST("/v1/uploads", {
    body: {
      content_type: contentType,
      size: bytes.length,
      sha256,
      ...(given.name === undefined ? {} : { name: given.name }),
    } as never,
    headers: { "Content-Type": "application/json" },
    signal: given.signal,
  });
  const pending = data as Upload & { put?: PendingPut };
  if (pending.put === undefined)
    throw new ReelayError("invalid_answer", "POST /v1/uploads answered no presigned PUT.");
  await putBytes(fetcher, pending.put, bytes, given.signal);
  const done = await api.POST("/v1/uploads/{id}/complete", {
    params: { path: { id: pending.id } },
    signal: given.signal,
  });
  return done.data as Upload;
}

/** POST /v1/uploads as multipart, or by presigned PUT for a large file (see UploadOptions.method). */
export function createUpload(
  api: Api,
  fetcher: Fetch,
  file: Blob | Uint8Array,
  given: UploadOptions = {},
): Promise<Upload> {
  const blob = file instanceof Blob ? file : new Blob([new Uint8Array(file)]);
  const method = given.method ?? (blob.size > PUT_ABOVE_BYTES ? "put" : "multipart");
  return method === "put" ? putUpload(api, fetcher, blob, given) : postUpload(api, blob, given);
}
