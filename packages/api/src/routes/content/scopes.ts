/** The scope each of this area's routes needs (route-scopes.ts collects them); `null`: open. */
import type { Scope } from "@reelay/core/domain";

export const CONTENT_SCOPES: Readonly<Record<string, Scope | null>> = {
  "GET /v1/jobs/{id}/content": "read",
};
