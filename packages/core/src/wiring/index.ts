/**
 * @reelay/core/wiring: the composition root: config, read once, and the one function that wires the
 * pipeline for a platform from every layer.
 */
export {
  loadConfig,
  SETTINGS,
  SIMULATOR_URL,
  type Config,
  type LogLevel,
  type LogSettings,
  type TraceExport,
} from "./config.ts";
export {
  dropDepsFrom,
  pricesOf,
  wirePipeline,
  type PlatformClients,
  type PoolMember,
  type Wiring,
} from "./wire-pipeline.ts";
/** The platform's DNS (node's), for the webhook URL check (domain/webhooks/url-guard.ts). */
export { systemResolver } from "../adapters/index.ts";
export { wireWebhooks } from "./wire-webhooks.ts";
