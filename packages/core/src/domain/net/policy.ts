/**
 * The two places reelay fetches URLs it did not choose, and how strict each deployment is about
 * them. On AWS the function runs next to the instance metadata service and the VPC: https only, no
 * loopback, no private addresses. The local stack's simulator and S3 stand-in live on 127.0.0.1, so
 * loopback (and plain http) is allowed there, and only there.
 */
import type { FetchPolicy } from "../../adapters/net/guarded-fetch.ts";

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
