export {
  startLocalStack,
  EVENTS_FILE,
  DEFAULT_SIM_GENERATION_MS,
  type LocalStack,
  type LocalStackOptions,
} from "./stack.ts";
export { readyBanner } from "./banner.ts";
export { loadOrCreateApiKey, API_KEY_FILE } from "./api-key.ts";
export {
  LOCAL_BUCKET,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  LOCAL_TABLE,
  localS3Client,
} from "./aws-standins.ts";
export { multipartExtras } from "./s3rver-extras.ts";
export { consoleLogger, silentLogger, type Logger } from "./log.ts";
