export { createApp } from "./app.ts";
export { singleKeyAuthenticator, sameSecret } from "./auth.ts";
export { type ApiDeps, type Caller, DEFAULTS, type WebhookApiDeps } from "./api-deps.ts";
export { apiDepsFrom } from "./api-deps-from-wiring.ts";
export type { JobView, TaskView } from "./views.ts";
export { MAX_EDIT_BODY_BYTES } from "./multipart.ts";
export { MAX_BATCH_BODY_BYTES } from "./routes/batches/handlers.ts";
export { MAX_UPLOAD_BODY_BYTES } from "./routes/uploads/handlers.ts";
