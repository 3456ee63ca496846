/** The scope each of this area's routes needs (route-scopes.ts collects them); `null`: open. */
import type { Scope } from "@reelay/core/domain";

export const METRICS_SCOPES: Readonly<Record<string, Scope | null>> = {
  "GET /metrics": "admin",
};
