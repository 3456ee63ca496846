/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import { HealthSchema } from "../../openapi/responses.ts";
import type { Operation } from "../../openapi/operation.ts";

export const HEALTH_OPERATIONS: Record<string, Operation> = {
  "GET /healthz": {
    summary: "Readiness",
    description: "200 when the API and its dependencies answer; 503 `unhealthy` otherwise.",
    tag: "service",
    auth: false,
    response: {
      status: 200,
      contentType: "application/json",
      schema: HealthSchema,
      example: { ok: true, version: "0.1.0", upstream: "simulator" },
      description: "Ready.",
    },
    errors: [{ status: 503, codes: ["unhealthy"], when: "A dependency check failed." }],
  },
};
