/**
 * A subscriber URL a user gave (a managed subscriber), checked when it is given: a 400 naming why
 * is better than a delivery that is dead on its first attempt. The names that are never public are
 * judged by name (`localhost`, `*.internal`, the metadata service's names), IP literals by address,
 * and other names by every address they resolve to now. The delivery guard (adapters/net/guarded-fetch.ts)
 * still checks again at each attempt, so a name that later resolves elsewhere is refused then.
 */
import { classifyAddress, type AddressKind } from "../net/address.ts";
import type { Resolver } from "../net/policy.ts";
import type { Deployment } from "../net/policy.ts";
import { ReelayError } from "../errors.ts";
import type { ErrorCode } from "../error-codes.ts";

const METADATA_NAMES = new Set(["metadata", "metadata.google.internal", "instance-data"]);

function refuse(code: ErrorCode, url: string, why: string): ReelayError {
  return new ReelayError(code, `The webhook URL ${url} is refused: ${why}.`, {
    status: 400,
    path: "url",
  });
}

/** The error for an address of this kind, or undefined when the deployment allows it. */
function judge(kind: AddressKind, deployment: Deployment, url: string, where: string) {
  if (kind === "public") return undefined;
  if (kind === "metadata")
    return refuse("webhook_url_metadata", url, `${where} is the metadata service`);
  if (kind === "loopback")
    return deployment === "local"
      ? undefined
      : refuse("webhook_url_loopback", url, `${where} is this machine (loopback)`);
  return refuse("webhook_url_private", url, `${where} is a ${kind} address, not a public one`);
}

function byName(host: string, deployment: Deployment, url: string): ReelayError | undefined {
  if (METADATA_NAMES.has(host))
    return refuse("webhook_url_metadata", url, `${host} names the metadata service`);
  if (host === "localhost" || host.endsWith(".localhost"))
    return judge("loopback", deployment, url, host);
  if (host.endsWith(".local") || host.endsWith(".internal") || !host.includes("."))
    return refuse("webhook_url_private", url, `${host} is a local name, not a public one`);
  return undefined;
}

export async function checkWebhookUrl(
  raw: string,
  deployment: Deployment,
  resolve: Resolver,
): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ReelayError("invalid_request", "url must be an absolute http(s) URL.", {
      status: 400,
      path: "url",
    });
  }
  const shown = `${url.protocol}//${url.host}`;
  const schemes = deployment === "local" ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol) || url.username !== "" || url.password !== "")
    throw refuse(
      "webhook_url_scheme",
      shown,
      `only ${deployment === "local" ? "http(s)" : "https"} URLs without credentials are delivered to`,
    );
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const literal = classifyAddress(host);
  const named =
    literal === "invalid"
      ? byName(host, deployment, shown)
      : judge(literal, deployment, shown, host);
  if (named !== undefined) throw named;
  if (literal !== "invalid") return url.toString();
  // A name that does not resolve now is left to the delivery guard.
  const addresses = await resolve(host).catch(() => []);
  for (const { address } of addresses) {
    const refused = judge(classifyAddress(address), deployment, shown, `${host} (${address})`);
    if (refused !== undefined) throw refused;
  }
  return url.toString();
}
