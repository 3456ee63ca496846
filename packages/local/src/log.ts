/**
 * Where the local stack says what happens in the background (drops, executions, resumes, children).
 * Readable lines by default; with REELAY_LOG_FORMAT=json one JSON object per line, in the shape
 * Powertools Logger writes on AWS (timestamp, level, service, message, the release's version, then
 * the keys), carrying what the line is about where it is known (core's LogContext, the keys the
 * functions log too).
 */
import type { LogLevel, LogSettings } from "@reelay/core/wiring";
import { type LogContext, VERSION } from "@reelay/core/domain";

export interface Logger {
  /** True when lines carry their context (json): only then is a job record read to fill it in. */
  readonly structured?: boolean;
  debug(message: string, context?: LogContext): void;
  info(message: string, context?: LogContext): void;
  warn(message: string, error?: unknown, context?: LogContext): void;
  error(message: string, error?: unknown, context?: LogContext): void;
}

const SEVERITY: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

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
    version: VERSION,
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
