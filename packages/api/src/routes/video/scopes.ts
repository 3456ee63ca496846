/** The scope each of this area's routes needs (route-scopes.ts collects them); `null`: open. */
import type { Scope } from "@reelay/core/domain";

export const VIDEO_SCOPES: Readonly<Record<string, Scope | null>> = {
  "POST /v1/video/generations": "write",
  "GET /v1/video/tasks/{taskId}": "read",
};
