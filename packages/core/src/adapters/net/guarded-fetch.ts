/**
 * A fetch for URLs reelay did not choose itself (upstream output URLs, webhook subscribers): the
 * SSRF guard. Each URL's scheme is checked, its host is resolved here and EVERY address it resolves
 * to is judged (see address.ts); the connection then goes to the checked address itself, so a DNS
 * answer that changes between the check and the connect (rebinding) cannot redirect it. TLS still
 * verifies the certificate against the host name. Redirects are followed here, at most
 * `maxRedirects`, each hop checked like the first. Bodies are capped at `maxBytes`.
 *
 * Built on node:http/https rather than the global fetch: their `lookup` option pins the address
 * without a second copy of undici beside the one inside Node.
 */
import {
  type Resolver,
  safeUrl,
  type FetchPolicy,
  type ResolvedAddress,
} from "../../domain/net/policy.ts";
import { keepNodeBody } from "../../domain/net/node-body.ts";
import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { ReelayError } from "../../domain/errors.ts";
import { classifyAddress, type AddressKind } from "../../domain/net/address.ts";

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

const URL_FORBIDDEN = "url_forbidden";
const TOO_MANY_REDIRECTS = "too_many_redirects";
const OUTPUT_TOO_LARGE = "output_too_large";
const OUTPUT_CONTENT_TYPE = "output_content_type";

const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 204, 205, 304]);
/** Dropped on a redirect to another origin, as fetch does. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

function forbidden(url: URL, why: string, details: Record<string, unknown> = {}): ReelayError {
  return new ReelayError(URL_FORBIDDEN, `reelay does not fetch ${safeUrl(url)}: ${why}.`, {
    details: { host: url.hostname, ...details },
  });
}

function allowed(kind: AddressKind, policy: FetchPolicy): boolean {
  if (kind === "public") return true;
  if (kind === "loopback") return policy.allowLoopback;
  if (kind === "private") return policy.allowPrivate;
  return false;
}

/** The address to connect to, once the scheme and every address of the host passed the policy. */
export async function checkTarget(
  url: URL,
  policy: FetchPolicy,
  resolve: Resolver = systemResolver,
): Promise<ResolvedAddress> {
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowHttp)) {
    throw forbidden(
      url,
      `only ${policy.allowHttp ? "http and https" : "https"} URLs are fetched, not ${url.protocol.replace(/:$/, "")}`,
    );
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(host);
  const addresses: ResolvedAddress[] =
    literal !== 0 ? [{ address: host, family: literal === 6 ? 6 : 4 }] : await resolve(host);
  const [first] = addresses;
  if (first === undefined) throw forbidden(url, `${host} resolves to no address`);
  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (!allowed(kind, policy)) {
      const where = literal !== 0 ? address : `${host} resolves to ${address}`;
      throw forbidden(url, `${where}, a ${kind} address`, { address, kind });
    }
  }
  return first;
}

/** A lookup that answers the checked address whatever name it is asked about. */
function pinned(target: ResolvedAddress): LookupFunction {
  return ((
    _hostname: string,
    options: { all?: boolean },
    callback: (...args: unknown[]) => void,
  ) => {
    if (options?.all === true) callback(null, [target]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}

function mediaType(headers: Headers): string {
  return (
    (headers.get("content-type") ?? "application/octet-stream")
      .split(";")[0]
      ?.trim()
      .toLowerCase() || "application/octet-stream"
  );
}

function typeAllowed(type: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) =>
    pattern.endsWith("/*") ? type.startsWith(pattern.slice(0, -1)) : type === pattern,
  );
}

function tooLarge(url: URL, bytes: number, maxBytes: number): ReelayError {
  return new ReelayError(
    OUTPUT_TOO_LARGE,
    `The answer from ${safeUrl(url)} is larger than the ${maxBytes}-byte limit (${bytes} bytes or more).`,
    {
      details: { maxBytes },
    },
  );
}

function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    const value = raw[i + 1];
    if (name === undefined || value === undefined) break;
    try {
      headers.append(name, value);
    } catch {
      // A header fetch itself would refuse; it is not one reelay reads.
    }
  }
  return headers;
}

/** The body's chunks; errors past `maxBytes` (output_too_large) or when the connection ends early. */
async function* bodyChunks(
  res: IncomingMessage,
  url: URL,
  maxBytes: number,
): AsyncGenerator<Buffer> {
  let received = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > maxBytes) throw tooLarge(url, received, maxBytes);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof ReelayError) throw error;
    // Node says "aborted" when the peer closes before Content-Length bytes; undici said "terminated".
    throw error instanceof Error
      ? new Error(`terminated: ${error.message}`, { cause: error })
      : error;
  } finally {
    // Stopped early by the reader, cut, or failed: the connection goes too.
    res.destroy();
  }
}

/** The same chunks as a web stream, for the Response. */
function webBody(chunks: AsyncGenerator<Buffer>, res: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done === true) controller.close();
          else
            controller.enqueue(
              new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength),
            );
        } catch (error) {
          controller.error(error);
        }
      },
      cancel() {
        res.destroy();
      },
    },
    // Pulled only when read: a stream that filled ahead would take chunks from nodeBody's reader.
    { highWaterMark: 0 },
  );
}

interface Exchange {
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  signal: AbortSignal | undefined;
}

function send(
  url: URL,
  target: ResolvedAddress,
  exchange: Exchange,
  idleTimeoutMs: number,
): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const options: RequestOptions = {
    protocol: url.protocol,
    hostname: host,
    port: url.port === "" ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method: exchange.method,
    headers: exchange.headers,
    lookup: pinned(target),
    // No pooled sockets: a socket to one checked address is never reused for another.
    agent: false,
    ...(exchange.signal === undefined ? {} : { signal: exchange.signal }),
  };
  return new Promise((resolve, reject) => {
    const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(options, resolve);
    req.once("error", reject);
    req.setTimeout(idleTimeoutMs, () =>
      req.destroy(new Error(`no data from ${url.host} for ${idleTimeoutMs} ms`)),
    );
    req.end(exchange.body);
  });
}

function exchangeOf(
  input: string | URL | Request,
  init: RequestInit,
): { url: URL; exchange: Exchange; redirect: NonNullable<RequestInit["redirect"]> } {
  if (input instanceof Request)
    throw new TypeError("guardedFetch takes a URL and init, not a Request");
  if (
    init.body !== undefined &&
    init.body !== null &&
    typeof init.body !== "string" &&
    !(init.body instanceof Uint8Array)
  ) {
    throw new TypeError("guardedFetch sends string or byte bodies only");
  }
  const headers: Record<string, string> = { "user-agent": "reelay" };
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  return {
    url: new URL(input),
    redirect: init.redirect ?? "follow",
    exchange: {
      method: (init.method ?? "GET").toUpperCase(),
      headers,
      body: init.body ?? undefined,
      signal: init.signal ?? undefined,
    },
  };
}

/** A fetch that only reaches what `policy` allows; errors of the guard are ReelayErrors with stable codes. */
export function guardedFetch(
  policy: FetchPolicy,
  resolve: Resolver = systemResolver,
): typeof fetch {
  const idleTimeoutMs = policy.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  return async (input, init = {}) => {
    let { url, exchange, redirect } = exchangeOf(input as string | URL | Request, init);
    for (let hops = 0; ; hops++) {
      const target = await checkTarget(url, policy, resolve);
      const res = await send(url, target, exchange, idleTimeoutMs);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      const follows =
        redirect === "follow" && (exchange.method === "GET" || exchange.method === "HEAD");
      if (REDIRECTS.has(status) && location !== undefined && follows) {
        res.destroy();
        if (hops >= policy.maxRedirects) {
          throw new ReelayError(
            TOO_MANY_REDIRECTS,
            `${safeUrl(url)} redirected more than ${policy.maxRedirects} times.`,
            { details: { maxRedirects: policy.maxRedirects } },
          );
        }
        const next = new URL(location, url);
        if (next.origin !== url.origin) {
          const headers = Object.fromEntries(
            Object.entries(exchange.headers).filter(([name]) => !CREDENTIAL_HEADERS.includes(name)),
          );
          exchange = { ...exchange, headers };
        }
        url = next;
        continue;
      }
      const headers = headersOf(res);
      if (status >= 200 && status < 300) {
        const declared = Number(headers.get("content-length") ?? Number.NaN);
        if (declared > policy.maxBytes) {
          res.destroy();
          throw tooLarge(url, declared, policy.maxBytes);
        }
        const type = mediaType(headers);
        if (
          policy.allowedContentTypes !== undefined &&
          !typeAllowed(type, policy.allowedContentTypes)
        ) {
          res.destroy();
          throw new ReelayError(
            OUTPUT_CONTENT_TYPE,
            `${safeUrl(url)} answered ${type}, not one of ${policy.allowedContentTypes.join(", ")}.`,
            {
              details: { contentType: type, allowed: [...policy.allowedContentTypes] },
            },
          );
        }
      }
      const nullBody = NULL_BODY.has(status) || exchange.method === "HEAD";
      if (nullBody) {
        res.resume();
        return new Response(null, { status, statusText: res.statusMessage ?? "", headers });
      }
      const chunks = bodyChunks(res, url, policy.maxBytes);
      const response = new Response(webBody(chunks, res), {
        status,
        statusText: res.statusMessage ?? "",
        headers,
      });
      keepNodeBody(response, chunks);
      return response;
    }
  };
}
