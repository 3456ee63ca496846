/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import type { Operation } from "../../openapi/operation.ts";

export const OPENAPI_OPERATIONS: Record<string, Operation> = {
  "GET /openapi.json": {
    summary: "This OpenAPI 3.1 document",
    description: "Generated from the zod schemas that validate requests.",
    tag: "service",
    auth: false,
    response: {
      status: 200,
      contentType: "application/json",
      example: { openapi: "3.1.0", info: { title: "reelay" } },
      description: "The document.",
    },
    errors: [],
  },
};
