/**
 * The functions' log: Powertools Logger, one JSON object a line in CloudWatch (timestamp, level,
 * service "reelay", message, the release's `version`, then the keys), the shape the local stack
 * writes with REELAY_LOG_FORMAT=json; the level is REELAY_LOG_LEVEL, read with the rest of the
 * config.
 */
import { Logger } from "@aws-lambda-powertools/logger";
import { jobContext, type Job, VERSION } from "@reelay/core/domain";
import type { JobStorePort } from "@reelay/core/usecases";
import { awsProcess } from "./deps.ts";

let made: Logger | undefined;

/** This process's logger, made on first use (after the config, which it takes its level from). */
export function functionLogger(): Logger {
  made ??= new Logger({
    serviceName: "reelay",
    logLevel: awsProcess().config.log.level,
    // On every line, as the local stack's JSON lines carry it.
    persistentKeys: { version: VERSION },
  });
  return made;
}

function isJob(value: unknown, jobId: string): value is Job {
  return typeof value === "object" && value !== null && (value as { id?: unknown }).id === jobId;
}

/**
 * The job store as one step sees it: each record of this job that it reads or writes also sets the
 * logger's keys for the invocation (model, batch, API key id, upstream task), so every later line
 * names them without a read of its own; the step reads the record anyway.
 */
export function jobsLoggedBy(jobs: JobStorePort, jobId: string, logger: Logger): JobStorePort {
  return new Proxy(jobs, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        if (!(result instanceof Promise)) return result;
        return result.then((answer: unknown) => {
          if (isJob(answer, jobId)) logger.appendKeys({ ...jobContext(answer) });
          return answer;
        });
      };
    },
  });
}
