/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import type { Operation } from "../../openapi/operation.ts";

export const DOCS_OPERATIONS: Record<string, Operation> = {
  "GET /docs": {
    summary: "Human-readable API reference",
    description: "A self-contained HTML page rendered from /openapi.json.",
    tag: "service",
    auth: false,
    response: {
      status: 200,
      contentType: "text/html",
      example: "<!doctype html>...",
      description: "The page.",
    },
    errors: [],
  },
};
