/** The scope each of this area's routes needs (route-scopes.ts collects them); `null`: open. */
import type { Scope } from "@reelay/core/domain";

export const WEBHOOKS_SCOPES: Readonly<Record<string, Scope | null>> = {
  // The delivery log and replays span every subscriber of the deployment.
  "GET /v1/webhooks/deliveries": "admin",
  "POST /v1/webhooks/deliveries/{id}/retry": "admin",
  "POST /v1/events/{id}/replay": "admin",
};
