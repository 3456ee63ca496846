/**
 * Copies an upstream output URL into the bucket, streamed: the upstream's URLs are temporary
 * (docs/contract.md §8), so the copy happens as soon as a task succeeds, and a file of any size passes through
 * in parts (8 MiB, see adapters/s3/part-size.ts). A copy that does not receive exactly Content-Length bytes is never completed.
 */
import type { ObjectStorePort } from "../ports.ts";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { ReelayError } from "../../domain/errors.ts";
import { nodeBody } from "../../domain/net/node-body.ts";
import { safeUrl } from "../../domain/net/policy.ts";
import { TransientError } from "../../domain/pipeline/step-errors.ts";
import type { ObjectTags, StoredObject } from "../ports.ts";
import type { MediaProbe } from "../../domain/media/probe.ts";
import type { Media } from "../../domain/media/types.ts";
import { inSpan } from "../../domain/tracing.ts";

export interface CopiedObject extends StoredObject {
  sourceUrlHost: string;
  /** What the probe read from the bytes as they passed; absent when the copy had no probe. */
  media?: Media;
}

/** A fixed key, or one chosen from the response's content type (e.g. the image extension). */
export type KeyChoice = string | ((contentType: string) => string);

function statusError(status: number, where: string): ReelayError {
  if (status === 408 || status === 429 || status >= 500) {
    return new TransientError(
      "download_unavailable",
      `The output at ${where} answered HTTP ${status}; will try again.`,
      {
        status,
      },
    );
  }
  const why =
    status === 403 || status === 404 || status === 410
      ? " (the temporary URL has expired or was never valid)"
      : "";
  return new ReelayError(
    "output_unavailable",
    `The output at ${where} answered HTTP ${status}${why}.`,
    { status },
  );
}

function contentLength(headers: Headers): number | undefined {
  const raw = headers.get("content-length");
  if (raw === null || !/^\d+$/.test(raw.trim())) return undefined;
  return Number(raw);
}

/**
 * `fetcher` is the deployment's guarded fetch (adapters/net/guarded-fetch.ts): its refusals (url_forbidden,
 * output_too_large, output_content_type) are permanent and pass through as they are. The copy is
 * one span (the host, the object's key and bytes; never the URL, whose query is a signature).
 */
export function copyUrlToS3(...args: Parameters<typeof copy>): Promise<CopiedObject> {
  return inSpan("copy", {}, async (span) => {
    const copied = await copy(...args);
    span.set({
      "server.address": copied.sourceUrlHost,
      "reelay.copy.key": copied.key,
      "reelay.copy.bytes": copied.bytes,
    });
    return copied;
  });
}

async function copy(
  fetcher: typeof fetch,
  url: string,
  store: ObjectStorePort,
  key: KeyChoice,
  probe?: MediaProbe,
  tags?: ObjectTags,
): Promise<CopiedObject> {
  const where = safeUrl(url);
  const sourceUrlHost = new URL(url).host;
  let response: Response;
  try {
    response = await fetcher(url, { redirect: "follow" });
  } catch (error) {
    if (error instanceof ReelayError) throw error;
    throw new TransientError(
      "download_failed",
      `Could not fetch the output at ${where}: ${error instanceof Error ? error.message : String(error)}.`,
      {
        cause: error,
      },
    );
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw statusError(response.status, where);
  }
  if (response.body === null) {
    throw new TransientError(
      "download_truncated",
      `The output at ${where} answered HTTP ${response.status} with no body.`,
    );
  }
  const contentType =
    (response.headers.get("content-type") ?? "application/octet-stream").split(";")[0]?.trim() ||
    "application/octet-stream";
  const expectedBytes = contentLength(response.headers);
  // The guard's own chunks when it made the Response; a web stream otherwise (any other fetch).
  const source =
    nodeBody(response) ?? Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  const objectKey = typeof key === "string" ? key : key(contentType);
  const tap = probe === undefined ? undefined : new ProbeTap(probe);
  const body = downloaded(source, where, expectedBytes);
  const stored = await store.uploadStream(objectKey, tap === undefined ? body : tap.tee(body), {
    contentType,
    ...(expectedBytes === undefined ? {} : { expectedBytes }),
    ...(tags === undefined ? {} : { tags }),
  });
  // Read once the object is stored whole: an output that does not parse is kept for a person to look at.
  return { ...stored, sourceUrlHost, ...(tap === undefined ? {} : { media: tap.finish() }) };
}

/**
 * Feeds the chunks on their way to the store through the probe. A probe that gives up (the bytes
 * are not of its type) stops reading and the copy goes on; its error is thrown by finish().
 */
class ProbeTap {
  #failure: unknown;
  constructor(readonly probe: MediaProbe) {}

  async *tee(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of body) {
      if (this.#failure === undefined) {
        try {
          this.probe.push(chunk);
        } catch (error) {
          this.#failure = error;
        }
      }
      yield chunk;
    }
  }

  finish(): Media {
    if (this.#failure !== undefined) throw this.#failure;
    return this.probe.finish();
  }
}

/** The source's chunks; a connection that fails mid-body is download_truncated (the guard's refusals pass as they are). */
async function* downloaded(
  source: AsyncIterable<Uint8Array>,
  where: string,
  expectedBytes: number | undefined,
): AsyncGenerator<Uint8Array> {
  try {
    yield* source;
  } catch (error) {
    if (error instanceof ReelayError) throw error;
    // The connection closed before the body was complete (undici says "terminated").
    throw new TransientError(
      "download_truncated",
      `The download of ${where} ended early: ${String((error as Error).message ?? error)}.`,
      {
        cause: error,
        ...(expectedBytes === undefined ? {} : { details: { expectedBytes } }),
      },
    );
  }
}
