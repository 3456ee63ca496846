/**
 * Bearer auth for every /v1 route. The deployment's own key (the local stack's `<data dir>/api-key`,
 * REELAY_API_KEY on AWS) is the admin caller "local": it sees every project's jobs and manages
 * keys. Keys made with `reelay keys create` are checked by their sha256 and see their project's
 * jobs, whichever of its keys made them (domain/keys/projects.ts).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { type Job, projectOf, isReelayError, ReelayError } from "@reelay/core/domain";
import type { ApiKeyStorePort } from "@reelay/core/usecases";
import type { ApiDeps, ApiEnv, Caller } from "./api-deps.ts";
import { errorBody, sendError } from "./errors.ts";

const BEARER = /^Bearer[ \t]+([!-~]+)[ \t]*$/i;

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** Equal digests have equal length, so the comparison takes the same time whatever the token. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The caller id of the deployment's own key. */
const ADMIN_KEY_ID = "local";

export function isAdmin(caller: Caller): boolean {
  return caller.keyId === ADMIN_KEY_ID;
}

/** Accepts exactly `key` as caller "local". */
export function singleKeyAuthenticator(
  key: string,
): (token: string) => Promise<Caller | undefined> {
  if (key.trim() === "") throw new TypeError("singleKeyAuthenticator needs a non-empty key");
  return async (token) => (sameSecret(token, key) ? { keyId: ADMIN_KEY_ID } : undefined);
}

/** The admin key as "local", else a live stored key as its own id. */
export function keyStoreAuthenticator(
  adminKey: string,
  keys: Pick<ApiKeyStorePort, "verify">,
): (token: string) => Promise<Caller | undefined> {
  const admin = singleKeyAuthenticator(adminKey);
  return async (token) => {
    const caller = await admin(token);
    if (caller !== undefined) return caller;
    const record = await keys.verify(token);
    if (record === undefined) return undefined;
    return {
      keyId: record.id,
      scopes: record.scopes,
      project: record.project,
      ...(record.budget === undefined ? {} : { budget: record.budget }),
      ...(record.limits === undefined ? {} : { limits: record.limits }),
      ...(record.on_sunset === undefined ? {} : { onSunset: record.on_sunset }),
    };
  };
}

/** The caller's project: its key's, else the one its key is alone in (named by its id). */
export function projectOfCaller(caller: Caller): string {
  return caller.project ?? caller.keyId;
}

/** Whether `caller` may see `job`: the admin sees all; a key sees its project's. */
export function mayAccess(caller: Caller, job: Pick<Job, "source">): boolean {
  return isAdmin(caller) || projectOf(job.source) === projectOfCaller(caller);
}

/** The listing filter for `caller`: none for the admin, its project for any other. */
export function ownerFilter(caller: Caller): { project?: string } {
  return isAdmin(caller) ? {} : { project: projectOfCaller(caller) };
}

/** What a record the caller makes carries: its key, and its project unless it is the deployment's. */
export function sourceOf(caller: Caller): { apiKeyId: string; project?: string } {
  return isAdmin(caller)
    ? { apiKeyId: caller.keyId }
    : { apiKeyId: caller.keyId, project: projectOfCaller(caller) };
}

export function forbidden(message: string): ReelayError {
  return new ReelayError("forbidden", message, { status: 403 });
}

export function bearerAuth(authenticate: ApiDeps["authenticate"]): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization");
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (token === undefined) {
      const message =
        header === undefined
          ? "Send the API key as `Authorization: Bearer <key>`."
          : "The Authorization header must be `Bearer <key>`.";
      return sendError(c, 401, errorBody("unauthorized", message), {
        "WWW-Authenticate": 'Bearer realm="reelay"',
      });
    }
    // An expired key is told apart from an unknown one, with the same Bearer challenge.
    const caller = await authenticate(token).catch((error: unknown) => {
      if (!isReelayError(error, "key_expired")) throw error;
      return error;
    });
    if (caller instanceof ReelayError) {
      return sendError(c, 401, errorBody("key_expired", caller.message, caller.details), {
        "WWW-Authenticate": 'Bearer realm="reelay", error="invalid_token"',
      });
    }
    if (caller === undefined) {
      return sendError(c, 401, errorBody("unauthorized", "The API key is not valid."), {
        "WWW-Authenticate": 'Bearer realm="reelay", error="invalid_token"',
      });
    }
    c.set("caller", caller);
    await next();
  };
}
