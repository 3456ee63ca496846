/**
 * The functions' log: Powertools Logger, one JSON object a line in CloudWatch (timestamp, level,
 * service "reelay", message, then the keys), the shape the local stack writes with
 * REELAY_LOG_FORMAT=json; the level is REELAY_LOG_LEVEL, read with the rest of the config.
 */
import { Logger } from "@aws-lambda-powertools/logger";
import { awsProcess } from "./deps.ts";

let made: Logger | undefined;

/** This process's logger, made on first use (after the config, which it takes its level from). */
export function functionLogger(): Logger {
  made ??= new Logger({ serviceName: "reelay", logLevel: awsProcess().config.log.level });
  return made;
}
