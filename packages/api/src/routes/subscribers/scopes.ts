/** The scope each of this area's routes needs (route-scopes.ts collects them); `null`: open. */
import type { Scope } from "@reelay/core/domain";

export const SUBSCRIBERS_SCOPES: Readonly<Record<string, Scope | null>> = {
  "POST /v1/webhooks": "webhooks",
  "GET /v1/webhooks": "webhooks",
  "DELETE /v1/webhooks/{id}": "webhooks",
  "POST /v1/webhooks/{id}/rotate": "webhooks",
};
