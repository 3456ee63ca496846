export * from "./domain/errors.ts";
export {
  ERROR_CODES,
  type ErrorCode,
  type RelayedCode,
  relayedCode,
} from "./domain/error-codes.ts";
export * from "./wiring/config.ts";
export * from "./domain/catalog/index.ts";
export * from "./domain/contract/schemas.ts";
export * from "./domain/contract/responses.ts";
export * from "./domain/validate/validate-request.ts";
export * from "./adapters/upstream/upstream-client.ts";
export * from "./domain/polling/policy.ts";
