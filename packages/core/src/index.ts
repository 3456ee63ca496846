export * from "./errors.ts";
export { ERROR_CODES, type ErrorCode, type RelayedCode, relayedCode } from "./error-codes.ts";
export * from "./config.ts";
export * from "./catalog/index.ts";
export * from "./contract/schemas.ts";
export * from "./contract/responses.ts";
export * from "./validate/index.ts";
export * from "./upstream/client.ts";
export * from "./polling/policy.ts";
