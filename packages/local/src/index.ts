export { startLocalStack, type LocalStack } from "./stack.ts";
export { readyBanner } from "./banner.ts";
export { consoleLogger } from "./log.ts";
