export {
  startLocalStack,
  EVENTS_FILE,
  DEFAULT_SIM_GENERATION_MS,
  type LocalStack,
  type LocalStackOptions,
} from "./stack.ts";
export { readyBanner } from "./banner.ts";
export { loadOrCreateApiKey, API_KEY_FILE } from "./api-key.ts";
export { LOCAL_BUCKET, LOCAL_TABLE } from "./aws-standins.ts";
export { LOCAL_CREDENTIALS, LOCAL_REGION, localS3Client } from "./aws-clients.ts";
export { multipartExtras } from "./s3rver/abort-and-list-uploads.ts";
export { consoleLogger, silentLogger, type Logger } from "./log.ts";
