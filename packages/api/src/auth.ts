/** Bearer auth for every /v1 route, and the one-key authenticator the local stack uses. */
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { ApiDeps, ApiEnv, Caller } from "./deps.ts";
import { errorBody, sendError } from "./errors.ts";

const BEARER = /^Bearer[ \t]+([!-~]+)[ \t]*$/i;

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** Equal digests have equal length, so the comparison takes the same time whatever the token. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** Accepts exactly `key` as caller "local". */
export function singleKeyAuthenticator(key: string): (token: string) => Promise<Caller | undefined> {
  if (key.trim() === "") throw new TypeError("singleKeyAuthenticator needs a non-empty key");
  return async (token) => (sameSecret(token, key) ? { keyId: "local" } : undefined);
}

export function bearerAuth(authenticate: ApiDeps["authenticate"]): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization");
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (token === undefined) {
      const message = header === undefined ? "Send the API key as `Authorization: Bearer <key>`." : "The Authorization header must be `Bearer <key>`.";
      return sendError(c, 401, errorBody("unauthorized", message), { "WWW-Authenticate": 'Bearer realm="reelay"' });
    }
    const caller = await authenticate(token);
    if (caller === undefined) {
      return sendError(c, 401, errorBody("unauthorized", "The API key is not valid."), {
        "WWW-Authenticate": 'Bearer realm="reelay", error="invalid_token"',
      });
    }
    c.set("caller", caller);
    await next();
  };
}
