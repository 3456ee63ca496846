/**
 * Each request the API answers is a server span (core's domain/tracing.ts): a job it makes is
 * named on it and begins its trace there. A caller's own `traceparent` header makes it a child of
 * the caller's span, so a client's trace holds the job too. Named by method and route pattern;
 * only the path goes on it, never the query or a header.
 */
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { inSpan } from "@reelay/core/domain";
import type { ApiEnv } from "./api-deps.ts";

export function requestSpan(): MiddlewareHandler<ApiEnv> {
  return (c, next) =>
    inSpan(
      c.req.method,
      {
        kind: "server",
        parent: c.req.header("traceparent"),
        attributes: { "http.request.method": c.req.method, "url.path": c.req.path },
      },
      async (span) => {
        await next();
        const route = routePath(c, -1);
        span.rename(`${c.req.method} ${route}`);
        span.set({ "http.route": route, "http.response.status_code": c.res.status });
        // An error the app answered itself (onError) fails the span all the same.
        if (c.res.status >= 500) span.fail({ code: `http_${c.res.status}` });
      },
    );
}
