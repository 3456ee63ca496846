/** GET /healthz: ok and the release, with the deps' own checks when given (503 when one fails). */
import type { Handler } from "hono";
import { VERSION } from "@reelay/core/domain";
import type { ApiDeps, ApiEnv } from "../../api-deps.ts";
import { errorBody, sendError } from "../../errors.ts";

export function healthz(health: ApiDeps["health"]): Handler<ApiEnv> {
  return async (c) => {
    if (health === undefined) return c.json({ ok: true, version: VERSION });
    try {
      return c.json({ ...(await health()), ok: true, version: VERSION });
    } catch (error) {
      const message = `A dependency check failed: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`;
      return sendError(c, 503, { ok: false, version: VERSION, ...errorBody("unhealthy", message) });
    }
  };
}
