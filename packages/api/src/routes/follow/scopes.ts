/** The scope each of this area's routes needs (route-scopes.ts collects them); `null`: open. */
import type { Scope } from "@reelay/core/domain";

export const FOLLOW_SCOPES: Readonly<Record<string, Scope | null>> = {
  "GET /v1/jobs/{id}/events": "read",
  "GET /v1/batches/{id}/events": "read",
};
