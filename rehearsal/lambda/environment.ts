/**
 * The environment a function's process starts with, built from nothing (never from this process's
 * own): Lambda's defaults that a function may override (LANG, PATH, LD_LIBRARY_PATH, NODE_PATH and,
 * with Tracing Active, the X-Ray daemon's address), then the template's Variables, then the stand-ins' endpoints, then the variables Lambda reserves.
 * The names and values are Lambda's documented list ("Defined runtime environment variables"), with
 * its folders swapped for the rehearsal's: /var/task is the bundle's folder, /var/runtime the
 * folder of bootstrap.mjs, /var/lang/bin the Node 22 binary's.
 */
import { randomBytes } from "node:crypto";
import { dirname } from "node:path";

interface EnvironmentInput {
  name: string;
  handler: string;
  codeDir: string;
  environment: Record<string, string>;
  standinEnvironment: Record<string, string>;
  memoryMb: number;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken: string };
  nodePath: string;
  xrayDaemonAddress?: string;
}

/**
 * The keys Lambda refuses in a function's Variables: a template that sets one fails to deploy
 * (InvalidParameterValueException, "...contains reserved keys that are currently not supported for
 * modification").
 */
const RESERVED = [
  "_HANDLER",
  "_X_AMZN_TRACE_ID",
  "AWS_DEFAULT_REGION",
  "AWS_REGION",
  "AWS_EXECUTION_ENV",
  "AWS_LAMBDA_FUNCTION_NAME",
  "AWS_LAMBDA_FUNCTION_MEMORY_SIZE",
  "AWS_LAMBDA_FUNCTION_VERSION",
  "AWS_LAMBDA_INITIALIZATION_TYPE",
  "AWS_LAMBDA_LOG_GROUP_NAME",
  "AWS_LAMBDA_LOG_STREAM_NAME",
  "AWS_ACCESS_KEY",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_LAMBDA_RUNTIME_API",
  "LAMBDA_TASK_ROOT",
  "LAMBDA_RUNTIME_DIR",
  "TZ",
];

export function reservedKeysIn(variables: Record<string, string>): string[] {
  return RESERVED.filter((key) => key in variables);
}

/** Lambda's stream name for one execution environment: 2026/11/28/[$LATEST]<32 hex>. */
export function logStreamName(now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replaceAll("-", "/");
  return `${day}/[$LATEST]${randomBytes(16).toString("hex")}`;
}

export function lambdaEnvironment(
  spec: EnvironmentInput,
  runtimeDir: string,
  streamName: string,
): Record<string, string> {
  const task = spec.codeDir;
  const overridable = {
    LANG: "en_US.UTF-8",
    PATH: `${dirname(spec.nodePath)}:/usr/local/bin:/usr/bin/:/bin:/opt/bin`,
    LD_LIBRARY_PATH: `${dirname(dirname(spec.nodePath))}/lib:/lib64:/usr/lib64:${runtimeDir}:${runtimeDir}/lib:${task}:${task}/lib:/opt/lib`,
    NODE_PATH: `/opt/nodejs/node22/node_modules:/opt/nodejs/node_modules:${runtimeDir}/node_modules:${runtimeDir}:${task}`,
  };
  return {
    ...overridable,
    ...xray(spec.xrayDaemonAddress),
    ...spec.environment,
    ...spec.standinEnvironment,
    ...reserved(spec, runtimeDir, streamName),
  };
}

function reserved(spec: EnvironmentInput, runtimeDir: string, streamName: string) {
  return {
    _HANDLER: spec.handler,
    AWS_REGION: spec.region,
    AWS_DEFAULT_REGION: spec.region,
    AWS_EXECUTION_ENV: "AWS_Lambda_nodejs22.x",
    AWS_LAMBDA_FUNCTION_NAME: spec.name,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(spec.memoryMb),
    AWS_LAMBDA_FUNCTION_VERSION: "$LATEST",
    AWS_LAMBDA_INITIALIZATION_TYPE: "on-demand",
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${spec.name}`,
    AWS_LAMBDA_LOG_STREAM_NAME: streamName,
    AWS_ACCESS_KEY_ID: spec.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: spec.credentials.secretAccessKey,
    AWS_SESSION_TOKEN: spec.credentials.sessionToken,
    LAMBDA_TASK_ROOT: spec.codeDir,
    LAMBDA_RUNTIME_DIR: runtimeDir,
    TZ: ":UTC",
  };
}

/** Tracing Active: where the X-Ray SDK sends its segments (the trace id is set per invocation). */
function xray(address: string | undefined): Record<string, string> {
  if (address === undefined) return {};
  const colon = address.lastIndexOf(":");
  return {
    AWS_XRAY_DAEMON_ADDRESS: address,
    _AWS_XRAY_DAEMON_ADDRESS: address.slice(0, colon),
    _AWS_XRAY_DAEMON_PORT: address.slice(colon + 1),
    AWS_XRAY_CONTEXT_MISSING: "LOG_ERROR",
  };
}

/**
 * Lambda's Node bootstrap sizes V8's heap to the function's memory (a tenth for the young
 * generation, a third of that per semi-space, the rest old space) unless NODE_OPTIONS sets either.
 */
export function memoryArgs(memoryMb: number, nodeOptions = ""): string[] {
  if (/max[-_](semi|old)[-_]space[-_]size/.test(nodeOptions)) return [];
  const newSpace = Math.floor(memoryMb / 10);
  return [
    `--max-semi-space-size=${Math.floor(newSpace / 3)}`,
    `--max-old-space-size=${memoryMb - newSpace}`,
  ];
}
