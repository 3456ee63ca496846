/**
 * The two places reelay fetches URLs it did not choose, and how strict each deployment is about
 * them. On AWS the function runs next to the instance metadata service and the VPC: https only, no
 * loopback, no private addresses. The local stack's simulator and S3 stand-in live on 127.0.0.1, so
 * loopback (and plain http) is allowed there, and only there.
 */

export type Deployment = "aws" | "local";

/** REELAY_MAX_OUTPUT_BYTES when unset: 4 GiB, far above any model's video. */
export const DEFAULT_MAX_OUTPUT_BYTES = 4 * 1024 ** 3;

/**
 * What an output may be. `binary/octet-stream` is what S3 labels an object stored without a type,
 * where upstream outputs often live; an HTML or JSON answer is an error page, not a video.
 */
const OUTPUT_CONTENT_TYPES: readonly string[] = [
  "video/*",
  "image/*",
  "application/mp4",
  "application/octet-stream",
  "binary/octet-stream",
];

const OUTPUT_REDIRECTS = 5;
/** A subscriber's answer is not used; anything longer than this is not read. */
const WEBHOOK_MAX_RESPONSE_BYTES = 64 * 1024;

function reach(
  deployment: Deployment,
): Pick<FetchPolicy, "allowHttp" | "allowLoopback" | "allowPrivate"> {
  const local = deployment === "local";
  return { allowHttp: local, allowLoopback: local, allowPrivate: false };
}

/** Downloads of upstream output URLs. */
export function outputFetchPolicy(
  deployment: Deployment,
  maxOutputBytes: number = DEFAULT_MAX_OUTPUT_BYTES,
): FetchPolicy {
  return {
    ...reach(deployment),
    maxBytes: maxOutputBytes,
    allowedContentTypes: OUTPUT_CONTENT_TYPES,
    maxRedirects: OUTPUT_REDIRECTS,
  };
}

/** Webhook POSTs to subscribers: the operator's URLs, still kept off the metadata service and the VPC on AWS. */
export function webhookFetchPolicy(deployment: Deployment): FetchPolicy {
  return { ...reach(deployment), maxBytes: WEBHOOK_MAX_RESPONSE_BYTES, maxRedirects: 0 };
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to. A seam for tests (a name that resolves to 127.0.0.1). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface FetchPolicy {
  /** Plain http:// is fetched too (local mode); otherwise https only. */
  allowHttp: boolean;
  /** 127.0.0.0/8 and ::1 (local mode: the simulator and s3rver live there). */
  allowLoopback: boolean;
  /** RFC 1918, CGNAT 100.64/10 and fc00::/7. Link-local and metadata addresses are never allowed. */
  allowPrivate: boolean;
  /** Largest body accepted: a bigger Content-Length is refused, a longer stream is cut. */
  maxBytes: number;
  /** Media types a 2xx answer may carry (`video/*` style wildcards); absent means any. */
  allowedContentTypes?: readonly string[];
  /** Redirects followed for GET and HEAD; other methods follow none. */
  maxRedirects: number;
  /** A connection silent this long is dropped (undici's fetch has the same 300 s default). */
  idleTimeoutMs?: number;
}

/** Where a URL points, without its query: signed URLs carry their signature there. */
export function safeUrl(url: string | URL): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "(unparseable URL)";
  }
}
