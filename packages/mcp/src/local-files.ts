/**
 * Over stdio the server runs on the agent's own machine, so a material field (a frame's or
 * reference's `url`, a `video_url`) may name a file there: it is uploaded (POST /v1/uploads) and
 * named by its `upload://upl_<ulid>` reference. Over HTTP a path names nothing reelay can read,
 * and goes to the API as it is (which refuses it, naming the field).
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { ReelayClient } from "@reelay/client";

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** The keys of the contract that hold a material URL (frames, references, reference images). */
const MATERIAL_KEYS = new Set(["url", "video_url"]);

/** A copy of `body` with every material field that names a local file as an upload reference. */
export async function uploadLocalFiles<T>(client: ReelayClient, body: T): Promise<T> {
  const copy = structuredClone(body);
  const uploaded = new Map<string, string>();
  const upload = async (path: string): Promise<string> => {
    const known = uploaded.get(path);
    if (known !== undefined) return known;
    const bytes = new Uint8Array(await readFile(path));
    const { url } = await client.uploads.create(bytes, { name: basename(path) });
    uploaded.set(path, url);
    return url;
  };
  const walk = async (holder: Record<string, unknown>): Promise<void> => {
    for (const [key, value] of Object.entries(holder)) {
      if (typeof value === "string" && MATERIAL_KEYS.has(key) && !SCHEME.test(value))
        holder[key] = await upload(value);
      else if (typeof value === "object" && value !== null)
        await walk(value as Record<string, unknown>);
    }
  };
  if (typeof copy === "object" && copy !== null) await walk(copy as Record<string, unknown>);
  return copy;
}
