/** The scope each of this area's routes needs (route-scopes.ts collects them); `null`: open. */
import type { Scope } from "@reelay/core/domain";

export const DASHBOARD_SCOPES: Readonly<Record<string, Scope | null>> = {
  "GET /": null,
  "GET /dashboard/app.js": null,
  "GET /dashboard/client.js": null,
  "GET /dashboard/models.json": null,
  "GET /dashboard/style.css": null,
};
