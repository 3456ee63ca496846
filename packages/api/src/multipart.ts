/**
 * The multipart form of POST /v1/images/edits, as OpenAI's API takes it: `image` or `image[]`
 * (1 to 7 files), `prompt`, `model`, `n`, `size`, `response_format`. Files are recognised by their
 * bytes, not by the name or type a client claims.
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { type ErrorCode, ReelayError } from "@reelay/core/domain";

/** Seven large PNGs fit; API Gateway on AWS caps a body at 10 MB anyway. */
export const MAX_EDIT_BODY_BYTES = 64 * 1024 * 1024;
const MAX_EDIT_IMAGES = 7;

interface UploadedImage {
  bytes: Uint8Array;
  contentType: string;
  ext: string;
}

export interface EditForm {
  images: UploadedImage[];
  prompt: string;
  model?: string;
  n?: number;
  size?: string;
  responseFormat?: string;
}

function bad(path: string, message: string, code: ErrorCode = "invalid_request"): ReelayError {
  return new ReelayError(code, message, { status: 400, path });
}

export function editBodyLimit(): MiddlewareHandler {
  return bodyLimit({
    maxSize: MAX_EDIT_BODY_BYTES,
    onError: () => {
      throw new ReelayError(
        "payload_too_large",
        `The request body is larger than ${MAX_EDIT_BODY_BYTES} bytes.`,
        { status: 413 },
      );
    },
  });
}

const SIGNATURES: { type: string; ext: string; test: (b: Uint8Array) => boolean }[] = [
  {
    type: "image/png",
    ext: "png",
    test: (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47,
  },
  { type: "image/jpeg", ext: "jpg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    type: "image/webp",
    ext: "webp",
    test: (b) => ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP",
  },
  { type: "image/gif", ext: "gif", test: (b) => ascii(b, 0, 4) === "GIF8" },
];

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

async function image(value: File, path: string): Promise<UploadedImage> {
  const bytes = new Uint8Array(await value.arrayBuffer());
  const kind = SIGNATURES.find((signature) => signature.test(bytes));
  if (kind === undefined)
    throw bad(path, `${path} is not a PNG, JPEG, WEBP or GIF image.`, "invalid_image");
  return { bytes, contentType: kind.type, ext: kind.ext };
}

function text(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  if (value === null) return undefined;
  if (typeof value !== "string") throw bad(name, `\`${name}\` must be a text field, not a file.`);
  return value.trim() === "" ? undefined : value.trim();
}

function count(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,2}$/.test(raw) || Number(raw) < 1) throw bad("n", "`n` must be a positive integer.");
  return Number(raw);
}

/**
 * A multipart/form-data body as FormData: 400 `invalid_content_type` (with `takes`, what the route
 * takes) for another type, `invalid_multipart` for a body that does not parse.
 */
export async function readMultipart(request: Request, takes: string): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data"))
    throw new ReelayError("invalid_content_type", takes, { status: 400 });
  try {
    return await request.formData();
  } catch {
    throw new ReelayError(
      "invalid_multipart",
      "The request body is not valid multipart/form-data.",
      { status: 400 },
    );
  }
}

export async function readEditForm(request: Request): Promise<EditForm> {
  const form = await readMultipart(
    request,
    "POST /v1/images/edits takes multipart/form-data (fields image or image[], prompt, model, n, size).",
  );
  const files = [...form.getAll("image"), ...form.getAll("image[]")];
  if (files.length === 0) throw bad("image", "Send 1 to 7 images as `image` or `image[]` files.");
  if (files.length > MAX_EDIT_IMAGES)
    throw bad("image", `At most ${MAX_EDIT_IMAGES} images, got ${files.length}.`);
  // async, so a text field among the files rejects like a bad image and no read is left unawaited.
  const images = await Promise.all(
    files.map(async (file, i) => {
      if (typeof file === "string")
        throw bad(`image[${i}]`, "`image` must be a file, not a text field.");
      return image(file, `image[${i}]`);
    }),
  );
  const prompt = text(form, "prompt");
  if (prompt === undefined)
    throw bad("prompt", "`prompt` is required: say what to change in the image(s).");
  const model = text(form, "model");
  const n = count(text(form, "n"));
  const size = text(form, "size");
  const responseFormat = text(form, "response_format");
  return {
    images,
    prompt,
    ...(model === undefined ? {} : { model }),
    ...(n === undefined ? {} : { n }),
    ...(size === undefined ? {} : { size }),
    ...(responseFormat === undefined ? {} : { responseFormat }),
  };
}
