/**
 * The real service fetches a task's material (frames, references) from their URLs; so does the
 * simulator, after the create's answer, and it records each fetch (without the URL's query, which
 * may hold a signature) so tests can see what the upstream was given.
 */
import type { SimContext } from "./context.ts";

/** A fetch that does not answer in this time is recorded as failed. */
const FETCH_TIMEOUT_MS = 10_000;

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function list(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.flatMap((item: unknown) => {
        const found = record(item);
        return found === undefined ? [] : [found];
      })
    : [];
}

/** The http(s) material URLs of a create's body: frames, references and reference images. */
function materialUrls(request: unknown): string[] {
  const body = record(request) ?? {};
  const urls = [
    ...list(body.frame_images).map((frame) => record(frame.image_url)?.url),
    ...list(body.input_references).flatMap((ref) => [
      record(ref.image_url)?.url,
      ref.video_url,
      ref.audio_url,
    ]),
    ...list(record(body.image_config)?.reference_images).map((ref) => ref.url),
  ];
  return urls.filter((url): url is string => typeof url === "string" && /^https?:\/\//i.test(url));
}

function shown(url: string): { url: string; signed: boolean } {
  const parsed = new URL(url);
  const signed = parsed.searchParams.has("X-Amz-Signature");
  return { url: `${parsed.origin}${parsed.pathname}`, signed };
}

async function fetchOne(ctx: SimContext, url: string): Promise<void> {
  let status: number | null = null;
  try {
    const signal = AbortSignal.any([ctx.fetches.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]);
    const answer = await fetch(url, { signal });
    status = answer.status;
    await answer.arrayBuffer();
  } catch {
    // refused, unresolvable, timed out or stopped: recorded with no status
  }
  ctx.counters.materialFetched({ ...shown(url), status });
}

/** Fetches every material URL of a new task in the background. */
export function fetchMaterial(ctx: SimContext, request: unknown): void {
  for (const url of materialUrls(request)) void fetchOne(ctx, url);
}
