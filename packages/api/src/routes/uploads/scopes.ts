/** The scope each of this area's routes needs (route-scopes.ts collects them); `null`: open. */
import type { Scope } from "@reelay/core/domain";

/** Uploading is part of making a job (write); looking one up is reading. */
export const UPLOADS_SCOPES: Readonly<Record<string, Scope | null>> = {
  "POST /v1/uploads": "write",
  "GET /v1/uploads/{id}": "read",
  "POST /v1/uploads/{id}/complete": "write",
};
