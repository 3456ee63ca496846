/**
 * The OpenAPI side of the API package, kept off its main entry: these zod schemas would otherwise
 * be built at every cold start of the API function, which only needs them to answer /openapi.json.
 */
export { DeliveryListSchema } from "./webhook-operations.ts";
