export { createApp } from "./app.ts";
export { singleKeyAuthenticator, sameSecret } from "./auth.ts";
export type { ApiDeps, Caller, WebhookApiDeps } from "./api-deps.ts";
export { apiDepsFrom } from "./api-deps-from-wiring.ts";
export { serveApp, type RunningServer } from "./serve.ts";
export type { JobView, TaskView } from "./views.ts";
