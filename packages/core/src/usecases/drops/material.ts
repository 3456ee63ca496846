/**
 * Material given by bare file name in a dropped request ("first.png") means the object uploaded
 * beside the prompt file. Such names are swapped for a placeholder HTTPS URL so validate() can judge
 * the request as usual, then for a presigned URL of the object once it is known to exist.
 */

/** Every field of the contract that holds a material URL, with a getter/setter per found value. */
interface MaterialSlot {
  path: string;
  get(): unknown;
  set(value: string): void;
}

const BARE_NAME = /^[\w][\w .()+-]*\.[A-Za-z0-9]{1,8}$/;

/** A bare file name: no scheme, no slash, has an extension. */
function isBareName(value: unknown): value is string {
  return (
    typeof value === "string" &&
    value.length <= 255 &&
    !value.includes("://") &&
    BARE_NAME.test(value)
  );
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function items(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.map(record).filter((item) => item !== undefined) : [];
}

function slots(body: unknown): MaterialSlot[] {
  const found: MaterialSlot[] = [];
  const root = record(body);
  if (root === undefined) return found;
  const urlOf = (holder: Record<string, unknown>, key: string, path: string) =>
    found.push({ path, get: () => holder[key], set: (value) => (holder[key] = value) });

  (Array.isArray(root.frame_images) ? root.frame_images : []).forEach((item, i) => {
    const image = record(record(item)?.image_url);
    if (image) urlOf(image, "url", `frame_images[${i}].image_url.url`);
  });
  (Array.isArray(root.input_references) ? root.input_references : []).forEach((item, i) => {
    const ref = record(item);
    if (ref === undefined) return;
    const image = record(ref.image_url);
    if (image) urlOf(image, "url", `input_references[${i}].image_url.url`);
    if (typeof ref.video_url === "string")
      urlOf(ref, "video_url", `input_references[${i}].video_url`);
  });
  items(record(root.image_config)?.reference_images).forEach((ref, i) => {
    urlOf(ref, "url", `image_config.reference_images[${i}].url`);
  });
  return found;
}

export interface BareMaterial {
  path: string;
  name: string;
}

/** Placeholder host: .invalid can never resolve (RFC 6761), so a placeholder can never be fetched. */
const PLACEHOLDER = "https://material.reelay.invalid/";

/**
 * Returns a copy of `body` whose bare names are placeholders, and the names found. The input is
 * never modified.
 */
export function withPlaceholders(body: unknown): { body: unknown; material: BareMaterial[] } {
  const copy: unknown = structuredClone(body);
  const material: BareMaterial[] = [];
  for (const slot of slots(copy)) {
    const value = slot.get();
    if (isBareName(value)) {
      material.push({ path: slot.path, name: value });
      slot.set(PLACEHOLDER + encodeURIComponent(value));
    }
  }
  return { body: copy, material };
}

/** Replaces placeholders in a (normalized) request with the URLs given per file name. */
export function replacePlaceholders<T>(body: T, urls: ReadonlyMap<string, string>): T {
  const copy = structuredClone(body);
  for (const slot of slots(copy)) {
    const value = slot.get();
    if (typeof value === "string" && value.startsWith(PLACEHOLDER)) {
      const url = urls.get(decodeURIComponent(value.slice(PLACEHOLDER.length)));
      if (url !== undefined) slot.set(url);
    }
  }
  return copy;
}
