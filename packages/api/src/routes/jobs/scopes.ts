/** The scope each of this area's routes needs (route-scopes.ts collects them); `null`: open. */
import type { Scope } from "@reelay/core/domain";

export const JOBS_SCOPES: Readonly<Record<string, Scope | null>> = {
  "GET /v1/jobs": "read",
  "GET /v1/jobs/{id}": "read",
  "POST /v1/jobs/{id}/cancel": "write",
  "POST /v1/jobs/{id}/retry": "write",
};
