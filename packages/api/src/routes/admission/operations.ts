/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import { AdmissionSchema } from "../../openapi/responses.ts";
import { ADMIN_ONLY, ID, UNAUTHORIZED } from "../../openapi/examples.ts";
import type { Operation } from "../../openapi/operation.ts";

export const ADMISSION_OPERATIONS: Record<string, Operation> = {
  "GET /v1/admission": {
    summary: "Upstream slots and the queue (admin key only)",
    description:
      "How many upstream tasks reelay keeps in flight (configured or learned from 429s), which jobs hold a slot, how many wait, and whether a create rate or an upstream's Retry-After holds admissions back.",
    tag: "jobs",
    auth: true,
    response: {
      status: 200,
      contentType: "application/json",
      schema: AdmissionSchema,
      example: {
        limit: 20,
        limitSource: "learned",
        ratePerS: null,
        held: [ID],
        queued: 280,
        heldBackUntil: null,
      },
      description: "Admission now.",
    },
    errors: [UNAUTHORIZED, ADMIN_ONLY],
  },
};
