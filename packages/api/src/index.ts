export { createApp } from "./app.ts";
export { ADMIN_KEY_ID, keyStoreAuthenticator, singleKeyAuthenticator, sameSecret } from "./auth.ts";
export type { ApiDeps, ApiEnv, Caller } from "./deps.ts";
export { apiDepsFrom, type PlatformApi } from "./wired.ts";
export { serveApp, type RunningServer, type ServeOptions } from "./serve.ts";
export type { JobView, OutputView, TaskView } from "./views.ts";
