/**
 * A key's `rate` and `burst` over every /v1 call, after auth: one bucket per key on the table
 * (KeyLimitsPort.take), so every API instance counts against the same one. A key with a rate gets
 * the IETF draft's `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` on each answer;
 * over it, 429 `rate_limited` with `Retry-After`. A key without a rate reads and writes nothing.
 */
import type { MiddlewareHandler } from "hono";
import type { KeyLimitsPort } from "@reelay/core/usecases";
import { type BucketTurn, rateLimited } from "@reelay/core/domain";
import type { ApiEnv } from "./api-deps.ts";
import { errorBody, sendError } from "./errors.ts";

function headersOf(burst: number, turn: BucketTurn): Record<string, string> {
  return {
    "RateLimit-Limit": String(burst),
    "RateLimit-Remaining": String(turn.remaining),
    "RateLimit-Reset": String(turn.resetS),
  };
}

export function rateLimit(limits: KeyLimitsPort, now: () => Date): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const caller = c.get("caller");
    const { rate, burst } = await limits.limitsOf(caller.keyId, caller.limits ?? {});
    if (rate === undefined || burst === undefined) return next();
    const bucket = { rate, burst };
    const turn = await limits.take(caller.keyId, bucket, now().getTime());
    const headers = headersOf(burst, turn);
    if (!turn.allowed) {
      const refusal = rateLimited(bucket, turn.retryAfterS);
      return sendError(c, 429, errorBody("rate_limited", refusal.message), {
        ...headers,
        "Retry-After": String(turn.retryAfterS),
      });
    }
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}
