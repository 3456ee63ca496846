/** The scope each of this area's routes needs (route-scopes.ts collects them); `null`: open. */
import type { Scope } from "@reelay/core/domain";

export const KEYS_SCOPES: Readonly<Record<string, Scope | null>> = {
  "POST /v1/keys": "admin",
  "GET /v1/keys": "admin",
  "DELETE /v1/keys/{id}": "admin",
  "PUT /v1/keys/{id}/budget": "admin",
  "DELETE /v1/keys/{id}/budget": "admin",
  "PUT /v1/keys/{id}/limits": "admin",
  "DELETE /v1/keys/{id}/limits": "admin",
  "POST /v1/keys/{id}/webhook-secret": "admin",
};
