/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the signed content is
 * `<webhook-id>.<webhook-timestamp>.<body>`, HMAC-SHA256 under the secret's bytes (the base64 after
 * `whsec_`), sent as `webhook-signature: v1,<base64>`.
 */
import { createHmac } from "node:crypto";
import { ReelayError } from "../errors.ts";

const SECRET_PREFIX = "whsec_";

/** The key bytes of a `whsec_<base64>` secret; `invalid_webhook_secret` otherwise. */
export function secretKey(secret: string, path = "secret"): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : "";
  const key = Buffer.from(encoded, "base64");
  // Buffer.from ignores bad characters, so a round trip is what proves the text was base64.
  if (key.length < 16 || key.toString("base64").replace(/=+$/, "") !== encoded.replace(/=+$/, "")) {
    throw new ReelayError(
      "invalid_webhook_secret",
      "A webhook secret must be `whsec_` followed by at least 16 base64-encoded bytes.",
      { path },
    );
  }
  return key;
}

export interface SignedHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/**
 * Headers for one delivery attempt; `timestampS` is Unix seconds. With several secrets (a rotation's
 * overlap) there is one signature per secret, space separated, as Standard Webhooks allows.
 */
export function signWebhook(
  secrets: string | readonly string[],
  id: string,
  timestampS: number,
  body: string,
): SignedHeaders {
  const timestamp = String(Math.floor(timestampS));
  const signatures = (typeof secrets === "string" ? [secrets] : secrets).map(
    (secret) =>
      `v1,${createHmac("sha256", secretKey(secret)).update(`${id}.${timestamp}.${body}`, "utf8").digest("base64")}`,
  );
  return {
    "webhook-id": id,
    "webhook-timestamp": timestamp,
    "webhook-signature": signatures.join(" "),
  };
}
