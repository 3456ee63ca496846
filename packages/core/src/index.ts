export * from "./errors.ts";
export * from "./config.ts";
