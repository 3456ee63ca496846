/**
 * `reelay generate --first-frame ./photo.png --ref ./clip.mp4`: material given as a path on this
 * machine (anything without a scheme) is uploaded (POST /v1/uploads) and named by its
 * `upload://upl_<ulid>` reference; a URL or an upload:// reference goes as it is.
 */
import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import { UsageError } from "../usage.ts";

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** A well-formed upload reference that names no upload: the stand-in validate() judges before any upload. */
const PENDING_UPLOAD = "upload://upl_00000000000000000000000000";

interface Slot {
  flag: string;
  get(): unknown;
  set(value: string): void;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function items(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    const found = record(item);
    return found === undefined ? [] : [found];
  });
}

/** The material fields generate fills: frames and references. */
function slots(body: Record<string, unknown>): Slot[] {
  const found: Slot[] = [];
  const at = (holder: Record<string, unknown> | undefined, key: string, flag: string) => {
    if (holder !== undefined && typeof holder[key] === "string")
      found.push({ flag, get: () => holder[key], set: (value) => (holder[key] = value) });
  };
  for (const frame of items(body.frame_images))
    at(record(frame.image_url), "url", `--${String(frame.frame_type).replace("_", "-")}`);
  for (const ref of items(body.input_references)) {
    at(record(ref.image_url), "url", "--ref");
    at(ref, "video_url", "--ref");
  }
  return found;
}

function isLocal(value: unknown): value is string {
  return typeof value === "string" && !SCHEME.test(value);
}

/** A copy of `body` with each local path as a pending upload reference: what validate() judges. */
export function withPendingUploads(body: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(body);
  for (const slot of slots(copy)) if (isLocal(slot.get())) slot.set(PENDING_UPLOAD);
  return copy;
}

async function readLocal(flag: string, path: string): Promise<Uint8Array> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !info.isFile())
    throw new UsageError(`${flag} "${path}" is neither a URL nor a file on this machine.`);
  return new Uint8Array(await readFile(path));
}

/**
 * A copy of `body` with each local path uploaded through `upload` and replaced by its reference;
 * a file named twice is uploaded once.
 */
export async function uploadLocalMaterial(
  body: Record<string, unknown>,
  upload: (bytes: Uint8Array, name: string) => Promise<{ url: string }>,
): Promise<Record<string, unknown>> {
  const copy = structuredClone(body);
  const done = new Map<string, string>();
  for (const slot of slots(copy)) {
    const path = slot.get();
    if (!isLocal(path)) continue;
    let url = done.get(path);
    if (url === undefined) {
      url = (await upload(await readLocal(slot.flag, path), basename(path))).url;
      done.set(path, url);
    }
    slot.set(url);
  }
  return copy;
}
