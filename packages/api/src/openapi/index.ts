/**
 * The OpenAPI side of the API package (the document, for @reelay/client's generated types, and its
 * schemas), kept off its main entry: these zod schemas would otherwise
 * be built at every cold start of the API function, which only needs them to answer /openapi.json.
 */
export { DeliveryListSchema } from "../routes/webhooks/operations.ts";
export { buildOpenApiDocument } from "./document.ts";
