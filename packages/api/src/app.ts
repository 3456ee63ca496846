/**
 * reelay's HTTP API as one hono app: the same app answers on Lambda (hono/aws-lambda) and on Node
 * (@hono/node-server). It speaks the service contract itself, so a client written for the upstream
 * can point its base URL at `http://host:port/v1` and keep working.
 */
import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import { mountAudit } from "./audit-trail.ts";
import { bearerAuth } from "./auth.ts";
import { dashboardRoutes } from "./dashboard/routes.ts";
import { resolveDeps, type ApiDeps, type ApiEnv } from "./api-deps.ts";
import { shownInput } from "@reelay/core/domain";
import { errorBody, handleError, sendError } from "./errors.ts";
import { rateLimit } from "./rate-limit.ts";
import { jobAccess } from "./ownership.ts";
import { requestSpan } from "./request-span.ts";
import { requireScope } from "./route-scopes.ts";
import type { OpenApiDocument } from "./openapi/document.ts";
import { admissionRoutes } from "./routes/admission/handlers.ts";
import { batchRoutes } from "./routes/batches/handlers.ts";
import { docsRoutes } from "./routes/docs/handlers.ts";
import { eventRoutes } from "./routes/events/handlers.ts";
import { healthz } from "./routes/health/handlers.ts";
import { imageRoutes } from "./routes/images/handlers.ts";
import { jobRoutes } from "./routes/jobs/handlers.ts";
import { contentRoutes } from "./routes/content/handlers.ts";
import { keyRoutes } from "./routes/keys/handlers.ts";
import { mcpRoutes } from "./routes/mcp/handlers.ts";
import { metricsRoutes } from "./routes/metrics/handlers.ts";
import { modelRoutes } from "./routes/models/handlers.ts";
import { openApiRoutes } from "./routes/openapi/handlers.ts";
import { upstreamRoutes } from "./routes/upstreams/handlers.ts";
import { uploadRoutes } from "./routes/uploads/handlers.ts";
import { usageRoutes } from "./routes/usage/handlers.ts";
import { videoRoutes } from "./routes/video/handlers.ts";
import { subscriberRoutes } from "./routes/subscribers/handlers.ts";
import { deliveryRoutes, replayRoutes } from "./routes/webhooks/handlers.ts";

/** A known path with another method: 405 naming the methods it takes (Allow). */
function notAllowed(app: Hono<ApiEnv>) {
  return methodNotAllowed({
    app,
    onMethodNotAllowed: (c, methods) =>
      sendError(
        c,
        405,
        errorBody(
          "method_not_allowed",
          `${c.req.method} is not allowed here; use ${methods.join(", ")}.`,
        ),
        { Allow: methods.join(", ") },
      ),
  });
}

export function createApp(input: ApiDeps): Hono<ApiEnv> {
  const deps = resolveDeps(input);
  const app = new Hono<ApiEnv>();

  app.use(requestSpan());
  app.use(notAllowed(app));
  app.get("/healthz", healthz(deps.health));

  // Open, and describing exactly the routes registered below (read on first request).
  // Built on first use, once every route is registered; its schemas load only then, so a cold
  // start (a Lambda's first request) does not pay for them.
  let built: Promise<OpenApiDocument> | undefined;
  const document = () =>
    (built ??= import("./openapi/document.ts").then((m) => m.buildOpenApiDocument(app.routes)));
  app.route("/", openApiRoutes(document));
  app.route("/", docsRoutes(document));

  if (deps.scrape !== undefined) app.route("/", metricsRoutes(deps.authenticate, deps.scrape));

  app.use("/v1/*", bearerAuth(deps.authenticate), rateLimit(deps.keyLimits, deps.now));
  app.use("/v1/*", requireScope());
  app.use("/v1/*", jobAccess(deps.jobs));
  mountAudit(app, deps);
  if (deps.mcp !== undefined)
    app.route(
      "/mcp",
      mcpRoutes(deps, deps.mcp, async (r) => app.fetch(r)),
    );
  app.route("/v1/keys", keyRoutes(deps.keys, deps.budgets, deps.keyLimits));
  app.route("/v1/video", videoRoutes(deps));
  app.route("/v1", imageRoutes(deps));
  app.route("/v1/jobs", jobRoutes(deps));
  app.route("/v1/jobs", contentRoutes(deps));
  app.route("/v1/admission", admissionRoutes(deps.admission));
  app.route("/v1/upstreams", upstreamRoutes(deps.admission));
  app.route("/v1/batches", batchRoutes(deps, deps.batches));
  app.route("/v1/uploads", uploadRoutes(deps));
  app.route("/v1/models", modelRoutes(deps));
  app.route("/v1/usage", usageRoutes(deps));
  app.route("/v1/webhooks/deliveries", deliveryRoutes(deps.webhooks));
  app.route("/v1/events", replayRoutes(deps.webhooks, deps.jobs));
  app.route("/v1/webhooks", subscriberRoutes(deps.webhooks.managed, deps.now));
  if (deps.eventStream !== undefined)
    app.route("/v1/events", eventRoutes(deps.eventStream, deps.sseHeartbeatMs));
  // The dashboard lives where the event stream does (the local stack): it shows jobs finishing live.
  if (deps.eventStream !== undefined) app.route("/", dashboardRoutes());

  app.notFound((c) =>
    sendError(
      c,
      404,
      errorBody("not_found", `No route ${c.req.method} ${shownInput(c.req.path, 200)}.`),
    ),
  );
  app.onError((error, c) => handleError(error, c, deps.reportError));
  return app;
}
