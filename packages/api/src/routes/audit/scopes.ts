/** The scope each of this area's routes needs (route-scopes.ts collects them); `null`: open. */
import type { Scope } from "@reelay/core/domain";

export const AUDIT_SCOPES: Readonly<Record<string, Scope | null>> = {
  // A stored admin key reads its project's records; the deployment's own key reads every one.
  "GET /v1/audit": "admin",
};
