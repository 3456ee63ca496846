/**
 * The rehearsal's Lambda runtime (rehearsal/lambda/) on real processes under Node 22: tiny handler
 * modules written into a temporary bundle folder, invoked as Lambda would invoke them. Checks the
 * environment a handler sees (exactly the template's, the stand-ins' and Lambda's own), errors as
 * Step Functions matches them, init errors, timeouts, warm and cold instances, asynchronous
 * invocations, peak memory, the response size limit and the context.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FunctionSpec,
  type FunctionStats,
  type Invocation,
  type InvokeResult,
  LambdaFunction,
} from "../../rehearsal/lambda/function.ts";
import { ensureNode22 } from "../../rehearsal/lambda/node22.ts";

const PARENT_ONLY = "PARENT_ONLY_VARIABLE";

const HANDLERS: Record<string, string> = {
  "env.mjs": `
    export const handler = async (event, context) => ({
      env: { ...process.env },
      version: process.version,
      event,
      context: {
        awsRequestId: context.awsRequestId,
        functionName: context.functionName,
        functionVersion: context.functionVersion,
        invokedFunctionArn: context.invokedFunctionArn,
        memoryLimitInMB: context.memoryLimitInMB,
        logGroupName: context.logGroupName,
        logStreamName: context.logStreamName,
        callbackWaitsForEmptyEventLoop: context.callbackWaitsForEmptyEventLoop,
        remainingMs: context.getRemainingTimeInMillis(),
      },
    });
    export const notAFunction = 42;`,
  "webhook.mjs": `
    export const sweep = async (event) => { console.log("sweeping", event.n); return { swept: event.n }; };
    export const handler = (event, context, callback) => {
      setTimeout(() => callback(null, { via: "callback" }), 10);
    };`,
  "fail.mjs": `
    class ReelayTransientError extends Error { name = "ReelayTransientError"; }
    export const handler = async () => { throw new ReelayTransientError("upstream answered 503"); };`,
  "broken.mjs": `throw new Error("REELAY_TABLE_NAME is not set");
    export const handler = async () => "unreachable";`,
  "hang.mjs": `
    export const handler = async (event) => event.hang ? new Promise(() => {}) : { pid: process.pid };`,
  "slow.mjs": `
    export const handler = async (event) => {
      await new Promise((resolve) => setTimeout(resolve, event.ms));
      if (event.touch) (await import("node:fs")).writeFileSync(event.touch, "");
      if (event.fail) throw new Error("async failure");
      return { pid: process.pid };
    };`,
  "memory.mjs": `
    export const handler = async (event) => {
      globalThis.kept = Buffer.alloc(event.mb * 1024 * 1024, 1);
      return { mb: event.mb };
    };`,
  "big.mjs": `export const handler = async () => "A".repeat(7_000_000);`,
  "crash.mjs": `
    export const handler = async (event) => {
      if (event.throwLater) setTimeout(() => { throw new TypeError(event.throwLater); }, event.afterMs);
      if (event.wait) await new Promise(() => {});
      return { pid: process.pid };
    };`,
};

let nodePath: string;
let bundle: string;
const opened: LambdaFunction[] = [];
const logs: string[] = [];

function spec(handler: string, extra: Partial<FunctionSpec> = {}): FunctionSpec {
  const name = `reelay-test-${handler.replace(/\W/g, "-")}`;
  return {
    name,
    arn: `arn:aws:lambda:eu-west-1:123456789012:function:${name}`,
    handler,
    codeDir: bundle,
    environment: { REELAY_TABLE_NAME: "reelay-jobs" },
    standinEnvironment: { AWS_ENDPOINT_URL_DYNAMODB: "http://127.0.0.1:4567" },
    memoryMb: 256,
    timeoutS: 5,
    region: "eu-west-1",
    credentials: { accessKeyId: "AKIDREHEARSAL", secretAccessKey: "secret", sessionToken: "token" },
    nodePath,
    onLog: (line) => logs.push(line),
    ...extra,
  };
}

function open(handler: string, extra: Partial<FunctionSpec> = {}): LambdaFunction {
  const fn = new LambdaFunction(spec(handler, extra));
  opened.push(fn);
  return fn;
}

function failure(result: InvokeResult): Extract<InvokeResult, { ok: false }> {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.payload)}`);
  return result;
}

function payload<T>(invocation: Invocation): T {
  if (!invocation.result.ok) throw new Error(JSON.stringify(invocation.result));
  return invocation.result.payload as T;
}

beforeAll(async () => {
  process.env[PARENT_ONLY] = "must not leak";
  nodePath = await ensureNode22();
  bundle = await mkdtemp(join(tmpdir(), "reelay-lambda-"));
  await mkdir(join(bundle, "functions"));
  for (const [file, source] of Object.entries(HANDLERS)) {
    await writeFile(join(bundle, "functions", file), source);
  }
}, 120_000);

afterAll(async () => {
  delete process.env[PARENT_ONLY];
  await Promise.all(opened.map((fn) => fn.close()));
  if (bundle) await rm(bundle, { recursive: true, force: true });
});

describe("a handler's result and what it saw", () => {
  it("runs on Node 22 with exactly the template's, the stand-ins' and Lambda's variables", async () => {
    const fn = open("functions/env.handler", { xrayDaemonAddress: "127.0.0.1:2000" });
    const invocation = await fn.invoke({ jobId: "j-1" });
    const seen = payload<{ env: Record<string, string>; version: string; event: unknown }>(
      invocation,
    );
    expect(seen.version).toMatch(/^v22\./);
    expect(seen.event).toEqual({ jobId: "j-1" });
    const lambda = [
      ...["LANG", "PATH", "LD_LIBRARY_PATH", "NODE_PATH", "TZ", "_HANDLER", "_X_AMZN_TRACE_ID"],
      ...["AWS_REGION", "AWS_DEFAULT_REGION", "AWS_EXECUTION_ENV", "AWS_LAMBDA_FUNCTION_NAME"],
      ...["AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "AWS_LAMBDA_FUNCTION_VERSION"],
      ...["AWS_LAMBDA_INITIALIZATION_TYPE", "AWS_LAMBDA_LOG_GROUP_NAME"],
      ...["AWS_LAMBDA_LOG_STREAM_NAME", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
      ...["AWS_SESSION_TOKEN", "LAMBDA_TASK_ROOT", "LAMBDA_RUNTIME_DIR"],
      ...["AWS_XRAY_DAEMON_ADDRESS", "_AWS_XRAY_DAEMON_ADDRESS", "_AWS_XRAY_DAEMON_PORT"],
      "AWS_XRAY_CONTEXT_MISSING",
    ];
    const expected = ["REELAY_TABLE_NAME", "AWS_ENDPOINT_URL_DYNAMODB", ...lambda];
    expect(Object.keys(seen.env).sort()).toEqual(expected.sort());
    expect(seen.env[PARENT_ONLY]).toBeUndefined();
    expect(seen.env).toMatchObject({
      REELAY_TABLE_NAME: "reelay-jobs",
      AWS_ENDPOINT_URL_DYNAMODB: "http://127.0.0.1:4567",
      AWS_REGION: "eu-west-1",
      AWS_EXECUTION_ENV: "AWS_Lambda_nodejs22.x",
      AWS_LAMBDA_FUNCTION_NAME: "reelay-test-functions-env-handler",
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: "256",
      AWS_LAMBDA_FUNCTION_VERSION: "$LATEST",
      AWS_LAMBDA_LOG_GROUP_NAME: "/aws/lambda/reelay-test-functions-env-handler",
      AWS_ACCESS_KEY_ID: "AKIDREHEARSAL",
      AWS_SESSION_TOKEN: "token",
      LAMBDA_TASK_ROOT: bundle,
      TZ: ":UTC",
      _HANDLER: "functions/env.handler",
      AWS_XRAY_DAEMON_ADDRESS: "127.0.0.1:2000",
    });
    expect(seen.env._X_AMZN_TRACE_ID).toMatch(/^Root=1-[0-9a-f]{8}-[0-9a-f]{24};Parent=/);
    expect(seen.env.AWS_LAMBDA_LOG_STREAM_NAME).toMatch(
      /^\d{4}\/\d\d\/\d\d\/\[\$LATEST\][0-9a-f]{32}$/,
    );
  });

  it("passes Lambda's context, its remaining time at most the timeout", async () => {
    const fn = open("functions/env.handler", { timeoutS: 3 });
    const invocation = await fn.invoke({});
    const { context } = payload<{ context: Record<string, unknown> }>(invocation);
    expect(context).toMatchObject({
      awsRequestId: invocation.requestId,
      functionName: "reelay-test-functions-env-handler",
      functionVersion: "$LATEST",
      invokedFunctionArn: spec("functions/env.handler").arn,
      memoryLimitInMB: "256",
      logGroupName: "/aws/lambda/reelay-test-functions-env-handler",
      callbackWaitsForEmptyEventLoop: true,
    });
    expect(context.remainingMs).toBeGreaterThan(0);
    // Whole milliseconds from the deadline: a handler that reads it in the millisecond the
    // invocation was sent sees the whole timeout (a loaded run met 3000).
    expect(context.remainingMs).toBeLessThanOrEqual(3000);
  });

  it("finds another export of the same module, and the callback form", async () => {
    const sweep = await open("functions/webhook.sweep").invoke({ n: 3 });
    expect(payload(sweep)).toEqual({ swept: 3 });
    expect(logs).toContainEqual(
      expect.stringMatching(new RegExp(`^\\S+Z\\t${sweep.requestId}\\tINFO\\tsweeping 3$`)),
    );
    const callback = await open("functions/webhook.handler").invoke({});
    expect(payload(callback)).toEqual({ via: "callback" });
  });

  it("refuses a template that sets a variable Lambda reserves", () => {
    const reserved = { ...spec("functions/env.handler"), environment: { AWS_REGION: "x" } };
    expect(() => new LambdaFunction(reserved)).toThrow(/reserved keys.*AWS_REGION/);
  });
});

describe("errors", () => {
  it("answers a thrown error's name as errorType, as Step Functions' Retry matches it", async () => {
    const fn = open("functions/fail.handler");
    const { result } = await fn.invoke({});
    expect(failure(result)).toMatchObject({
      errorType: "ReelayTransientError",
      errorMessage: "upstream answered 503",
    });
    expect(failure(result).trace?.[0]).toBe("ReelayTransientError: upstream answered 503");
    expect(fn.stats()).toMatchObject({ invocations: 1, errors: 1, initErrors: [] });
  });

  it("answers an import that throws as an init error, recorded with its message, and retries init", async () => {
    const fn = open("functions/broken.handler");
    const first = await fn.invoke({});
    expect(first.coldStart).toBe(true);
    expect(failure(first.result)).toMatchObject({
      initError: true,
      errorType: "Error",
      errorMessage: "REELAY_TABLE_NAME is not set",
    });
    const second = await fn.invoke({});
    expect(second.coldStart).toBe(true);
    const stats: FunctionStats = fn.stats();
    expect(stats).toMatchObject({ invocations: 2, coldStarts: 2, errors: 2 });
    expect(stats.initErrors).toEqual(["Error: REELAY_TABLE_NAME is not set"]);
  });

  it("names a missing module and a missing or non-function export as Lambda's runtime does", async () => {
    const missingModule = await open("functions/nope.handler").invoke({});
    expect(failure(missingModule.result)).toMatchObject({
      initError: true,
      errorType: "Runtime.ImportModuleError",
      errorMessage: expect.stringContaining("Error: Cannot find module 'nope'"),
    });
    const missingExport = await open("functions/env.missing").invoke({});
    expect(failure(missingExport.result)).toMatchObject({
      errorType: "Runtime.HandlerNotFound",
      errorMessage: "functions/env.missing is undefined or not exported",
    });
    const notAFunction = await open("functions/env.notAFunction").invoke({});
    expect(failure(notAFunction.result).errorType).toBe("Runtime.HandlerNotFound");
  });

  it("answers an error nothing caught, then cold-starts, as that error ends the environment", async () => {
    const fn = open("functions/crash.handler");
    const crashed = await fn.invoke({ throwLater: "late failure", afterMs: 0, wait: true });
    expect(failure(crashed.result)).toMatchObject({
      errorType: "TypeError",
      errorMessage: "late failure",
    });
    const afterCrash = await fn.invoke({ throwLater: "failure while idle", afterMs: 20 });
    expect(afterCrash.coldStart).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const afterIdleCrash = await fn.invoke({});
    expect(afterIdleCrash.coldStart).toBe(true);
    expect(afterIdleCrash.result.ok).toBe(true);
    expect(fn.stats()).toMatchObject({ invocations: 3, coldStarts: 3, errors: 1 });
  });

  it("refuses a result over 6 MB with Lambda's error", async () => {
    const fn = open("functions/big.handler");
    const invocation = await fn.invoke({});
    expect(failure(invocation.result)).toEqual({
      ok: false,
      errorType: "Function.ResponseSizeTooLarge",
      errorMessage: "Response payload size exceeded maximum allowed payload size (6291556 bytes).",
    });
    expect(invocation.responseBytes).toBe(7_000_002);
    expect(fn.stats().maxResponseBytes).toBe(7_000_002);
  });
});

describe("instances", () => {
  it("times a hung handler out at timeoutS, then cold-starts the next call", async () => {
    const fn = open("functions/hang.handler", { timeoutS: 1 });
    const hung = await fn.invoke({ hang: true });
    expect(failure(hung.result)).toMatchObject({
      timedOut: true,
      errorType: "Sandbox.Timedout",
      errorMessage: `RequestId: ${hung.requestId} Error: Task timed out after 1.00 seconds`,
    });
    expect(hung.durationMs).toBeGreaterThanOrEqual(999);
    const next = await fn.invoke({ hang: false });
    expect(next.coldStart).toBe(true);
    expect(next.result.ok).toBe(true);
    expect(fn.stats()).toMatchObject({ invocations: 2, coldStarts: 2, timeouts: 1, errors: 1 });
  });

  it("runs two concurrent invocations in two instances, then reuses one warm", async () => {
    const fn = open("functions/slow.handler");
    const [a, b] = await Promise.all([fn.invoke({ ms: 300 }), fn.invoke({ ms: 300 })]);
    const pids = [payload<{ pid: number }>(a).pid, payload<{ pid: number }>(b).pid];
    expect(new Set(pids).size).toBe(2);
    expect([a.coldStart, b.coldStart]).toEqual([true, true]);
    const later = await fn.invoke({ ms: 0 });
    expect(later.coldStart).toBe(false);
    expect(pids).toContain(payload<{ pid: number }>(later).pid);
    expect(later.billedMs).toBe(Math.ceil(later.durationMs));
    expect(a.billedMs).toBe(Math.ceil(a.durationMs + (a.initDurationMs ?? Number.NaN)));
    expect(fn.stats()).toMatchObject({ invocations: 3, coldStarts: 2 });
  });

  it("waits for an instance past maxInstances", async () => {
    const fn = open("functions/slow.handler", { maxInstances: 1 });
    const both = await Promise.all([fn.invoke({ ms: 100 }), fn.invoke({ ms: 100 })]);
    expect(both.map((invocation) => invocation.coldStart).sort()).toEqual([false, true]);
    expect(fn.stats().coldStarts).toBe(1);
  });

  it("runs asynchronous invocations to the end of idle(), counting their errors", async () => {
    const fn = open("functions/slow.handler");
    const touched = join(bundle, "async-ran");
    fn.invokeAsync({ ms: 200, touch: touched });
    fn.invokeAsync({ ms: 100, fail: true });
    await fn.idle();
    expect(existsSync(touched)).toBe(true);
    expect(fn.stats()).toMatchObject({ invocations: 2, errors: 1 });
  });

  it("reads each instance's peak memory, which grows with what the handler allocates", async () => {
    const fn = open("functions/memory.handler", { memoryMb: 512 });
    await fn.invoke({ mb: 0 });
    const before = fn.stats().peakMemoryMb;
    expect(before).toBeGreaterThan(0);
    await fn.invoke({ mb: 100 });
    expect(fn.stats().peakMemoryMb).toBeGreaterThanOrEqual(before + 90);
  });
});

describe("logs", () => {
  it("hands every line to onLog, with START, END and REPORT, and counts their bytes", async () => {
    const lines: string[] = [];
    const fn = open("functions/webhook.sweep", { onLog: (line) => lines.push(line) });
    const { requestId } = await fn.invoke({ n: 7 });
    expect(lines[0]).toBe(`START RequestId: ${requestId} Version: $LATEST`);
    expect(lines[1]).toMatch(new RegExp(`\\t${requestId}\\tINFO\\tsweeping 7$`));
    expect(lines[2]).toBe(`END RequestId: ${requestId}`);
    expect(lines[3]).toMatch(
      new RegExp(
        `^REPORT RequestId: ${requestId}\\tDuration: [\\d.]+ ms\\tBilled Duration: \\d+ ms\\tMemory Size: 256 MB\\tMax Memory Used: \\d+ MB\\tInit Duration: [\\d.]+ ms\\t$`,
      ),
    );
    const bytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
    expect(fn.stats().logBytes).toBe(bytes);
  });
});
