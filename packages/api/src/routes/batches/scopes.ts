/** The scope each of this area's routes needs (route-scopes.ts collects them); `null`: open. */
import type { Scope } from "@reelay/core/domain";

export const BATCHES_SCOPES: Readonly<Record<string, Scope | null>> = {
  "GET /v1/batches": "read",
  "POST /v1/batches": "write",
  "GET /v1/batches/{id}": "read",
  "GET /v1/batches/{id}/results": "read",
  "POST /v1/batches/{id}/cancel": "write",
  "POST /v1/batches/{id}/retry": "write",
};
