/** The scope each of this area's routes needs (route-scopes.ts collects them); `null`: open. */
import type { Scope } from "@reelay/core/domain";

export const IMAGES_SCOPES: Readonly<Record<string, Scope | null>> = {
  "POST /v1/chat/completions": "write",
  "GET /v1/image/tasks/{taskId}": "read",
  "POST /v1/images/edits": "write",
};
