/**
 * Where the local stack says what happens in the background (drops, executions, resumes, children).
 * Readable lines by default; with REELAY_LOG_FORMAT=json one JSON object per line, in the shape
 * Powertools Logger writes on AWS (timestamp, level, service, message, then the keys), carrying
 * what the line is about where it is known: job, batch, step, the API key's id (never the key),
 * model, upstream task.
 */
import type { LogLevel, LogSettings } from "@reelay/core/config";
import type { Job } from "@reelay/core/jobs/types";

/** What a line is about. */
export interface LogContext {
  jobId?: string;
  batchId?: string;
  step?: string;
  keyId?: string;
  model?: string;
  upstreamTaskId?: string;
  /** The error code a job ended with. */
  errorCode?: string;
}

export interface Logger {
  /** True when lines carry their context (json): only then is a job record read to fill it in. */
  readonly structured?: boolean;
  debug(message: string, context?: LogContext): void;
  info(message: string, context?: LogContext): void;
  warn(message: string, error?: unknown, context?: LogContext): void;
  error(message: string, error?: unknown, context?: LogContext): void;
}

const SEVERITY: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** The context of a line about this job: what its record says, where it says it. */
export function jobContext(
  job: Pick<Job, "id"> & Partial<Pick<Job, "model" | "source" | "batchId" | "upstreamTaskId">>,
): LogContext {
  const context: LogContext = { jobId: job.id };
  if (job.batchId !== undefined) context.batchId = job.batchId;
  if (job.source?.apiKeyId !== undefined) context.keyId = job.source.apiKeyId;
  if (job.model !== undefined) context.model = job.model;
  if (job.upstreamTaskId !== undefined) context.upstreamTaskId = job.upstreamTaskId;
  return context;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** As Powertools writes an error: name, message and stack, and the code when it has one. */
function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message: error.message,
    ...(typeof code === "string" ? { code } : {}),
    ...(error.stack === undefined ? {} : { stack: error.stack }),
  };
}

type Line = (level: LogLevel, message: string, error: unknown, context: LogContext) => string;

const textLine: Line = (_level, message, error) =>
  `reelay: ${message}${error === undefined ? "" : ` (${describe(error)})`}\n`;

const jsonLine: Line = (level, message, error, context) =>
  `${JSON.stringify({
    timestamp: new Date().toISOString(),
    level: level.toUpperCase(),
    service: "reelay",
    message,
    ...context,
    ...(error === undefined ? {} : { error: errorFields(error) }),
  })}\n`;

export function consoleLogger(
  write: (line: string) => void = (line) => process.stderr.write(line),
  settings: LogSettings = { format: "text", level: "info" },
): Logger {
  const line = settings.format === "json" ? jsonLine : textLine;
  const threshold = SEVERITY[settings.level];
  const at =
    (level: LogLevel) =>
    (message: string, error?: unknown, context: LogContext = {}): void => {
      if (SEVERITY[level] >= threshold) write(line(level, message, error, context));
    };
  const debug = at("debug");
  const info = at("info");
  return {
    structured: settings.format === "json",
    debug: (message, context) => debug(message, undefined, context),
    info: (message, context) => info(message, undefined, context),
    warn: at("warn"),
    error: at("error"),
  };
}

const nothing = () => undefined;
export const silentLogger: Logger = {
  debug: nothing,
  info: nothing,
  warn: nothing,
  error: nothing,
};
