/**
 * The rehearsal's stand-in for Lambda's Node.js runtime (what /var/runtime/index.mjs is on
 * nodejs22.x): one execution environment, run by rehearsal/lambda/instance.ts under Node 22 with
 * exactly the function's environment. Plain JavaScript, so Node 22 runs it without a loader.
 *
 * It loads the handler as Lambda's runtime interface client does (the same file lookup order, the
 * same Runtime.* error names and messages), patches console as its text log format does, and then
 * answers one invocation at a time. Instead of the Runtime API over HTTP it talks to the parent
 * over Node's IPC channel:
 *   parent -> { type: "invoke", requestId, payload (the event's JSON), deadlineMs, arn, traceId?, maxResponseBytes }
 *   child  -> { type: "ready" } | { type: "initError", error }
 *           | { type: "result", requestId, bytes, payload? (JSON; absent when over maxResponseBytes) }
 *           | { type: "error", requestId, error, fatal? }
 * Before each message it writes the flush marker (argv[2]) on stdout and stderr, so the parent
 * can hand out every line the function printed before the message that ends its phase.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import util from "node:util";

const FLUSH = process.argv[2];
// Where Lambda's runtime keeps the current request id; libraries that log outside the handler
// read it from here too.
const REQUEST_ID = Symbol.for("aws.lambda.runtime.requestId");

let invoking;

function send(message, then) {
  process.stdout.write(`${FLUSH}\n`);
  process.stderr.write(`${FLUSH}\n`);
  process.send(message, then);
}

/** Lambda's text log format: one line per console call, its newlines turned into \r. */
function patchConsole() {
  const logger =
    (level) =>
    (message, ...params) => {
      const text = util.format(message, ...params);
      const line = `${new Date().toISOString()}\t${globalThis[REQUEST_ID]}\t${level}\t${text}`;
      process.stdout.write(`${line.replace(/\n/g, "\r")}\n`);
    };
  console.trace = logger("TRACE");
  console.debug = logger("DEBUG");
  console.info = logger("INFO");
  console.log = console.info;
  console.warn = logger("WARN");
  console.error = logger("ERROR");
  console.fatal = logger("FATAL");
}

/** The error as the runtime posts it: Step Functions matches errorType against its Retry names. */
function formatError(error) {
  try {
    if (error instanceof Error || util.types.isNativeError(error)) {
      return {
        errorType: error.name,
        errorMessage: error.message,
        trace: typeof error.stack === "string" ? error.stack.split("\n") : [],
      };
    }
    return { errorType: typeof error, errorMessage: String(error), trace: [] };
  } catch {
    return {
      errorType: "handled",
      errorMessage:
        "callback called with Error argument, but there was a problem while retrieving one or more of its message, name, and stack",
      trace: [],
    };
  }
}

/** The tab-led JSON Lambda appends to an "Invoke Error" or "Uncaught Exception" log line. */
function toFormatted(error) {
  const withProperties = (_key, value) => {
    if (!(value instanceof Error)) return value;
    const fields = { errorType: value.name, errorMessage: value.message, code: value.code };
    const formatted = Object.assign(fields, value);
    if (typeof value.stack === "string") formatted.stack = value.stack.split("\n");
    return formatted;
  };
  try {
    return `\t${JSON.stringify(error, withProperties)}`;
  } catch {
    return `\t${JSON.stringify(formatError(error))}`;
  }
}

function runtimeError(name, message, stack) {
  const error = new Error(message);
  error.name = name;
  if (stack) error.stack = stack;
  return error;
}

/** A .js file is an ES module when the nearest package.json (below node_modules) says so. */
function typeModule(folder) {
  if (folder.endsWith("/node_modules")) return false;
  const manifest = path.join(folder, "package.json");
  if (existsSync(manifest)) {
    try {
      return JSON.parse(readFileSync(manifest, "utf8"))?.type === "module";
    } catch {
      return false;
    }
  }
  return folder === "/" ? false : typeModule(path.resolve(folder, ".."));
}

async function importFile(file) {
  return await import(pathToFileURL(file).href);
}

/** The runtime's order: extensionless and CommonJS .js by require, then .js, .mjs, .cjs. */
async function loadModule(taskRoot, moduleRoot, name) {
  const file = path.resolve(taskRoot, moduleRoot, name);
  const require = createRequire(path.join(taskRoot, "index.js"));
  const esm = typeModule(path.dirname(file));
  try {
    if (existsSync(file)) return require(file);
    if (existsSync(`${file}.js`))
      return esm ? await importFile(`${file}.js`) : require(`${file}.js`);
    if (existsSync(`${file}.mjs`)) return await importFile(`${file}.mjs`);
    if (existsSync(`${file}.cjs`)) return require(`${file}.cjs`);
    return require(require.resolve(name, { paths: [taskRoot, moduleRoot] }));
  } catch (error) {
    if (error instanceof SyntaxError) {
      throw runtimeError("Runtime.UserCodeSyntaxError", String(error), error.stack);
    }
    if (error?.code === "MODULE_NOT_FOUND") {
      throw runtimeError("Runtime.ImportModuleError", String(error));
    }
    throw error;
  }
}

function findIn(handlerPath, module) {
  return handlerPath
    .split(".")
    .reduce(
      (nested, key) => (nested && typeof nested === "object" ? nested[key] : undefined),
      module,
    );
}

/** "functions/api.handler": module functions/api below the task root, its export `handler`. */
async function loadHandler(taskRoot, fullHandler) {
  if (fullHandler.includes("..")) {
    const message = `'${fullHandler}' is not a valid handler name. Use absolute paths when specifying root directories in handler names.`;
    throw runtimeError("Runtime.MalformedHandlerName", message);
  }
  const base = path.basename(fullHandler);
  const moduleRoot = fullHandler.slice(0, fullHandler.indexOf(base));
  const match = base.match(/^([^.]*)\.(.*)$/);
  if (!match) throw runtimeError("Runtime.MalformedHandlerName", "Bad handler");
  const module = await loadModule(taskRoot, moduleRoot, match[1]);
  const handler = findIn(match[2], module) ?? findIn(match[2], module?.default);
  if (!handler) {
    throw runtimeError("Runtime.HandlerNotFound", `${fullHandler} is undefined or not exported`);
  }
  if (typeof handler !== "function") {
    throw runtimeError("Runtime.HandlerNotFound", `${fullHandler} is not a function`);
  }
  return handler;
}

function respond(request, result) {
  let json;
  try {
    json = JSON.stringify(result === undefined ? null : result) ?? "null";
  } catch {
    fail(request, runtimeError("Runtime.JSONStringifyError", "Unable to stringify response body"));
    return;
  }
  const bytes = Buffer.byteLength(json);
  const over = bytes > request.maxResponseBytes;
  send({ type: "result", requestId: request.requestId, bytes, ...(over ? {} : { payload: json }) });
}

function fail(request, error) {
  console.error("Invoke Error", toFormatted(error));
  send({ type: "error", requestId: request.requestId, error: formatError(error) });
}

function lambdaContext(request, settle) {
  const env = process.env;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: env.AWS_LAMBDA_FUNCTION_VERSION,
    invokedFunctionArn: request.arn,
    memoryLimitInMB: env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: request.requestId,
    logGroupName: env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: env.AWS_LAMBDA_LOG_STREAM_NAME,
    getRemainingTimeInMillis: () => request.deadlineMs - Date.now(),
    // The legacy completion methods the Node runtime still offers.
    done: (error, result) => settle(error ? { error } : { result }),
    succeed: (result) => settle({ result }),
    fail: (error) => settle({ error: error ?? new Error("handled") }),
  };
}

/**
 * One invocation: async handlers by their promise, the callback form by its callback, whichever
 * comes first. Unlike Lambda, a callback answers at once rather than after the event loop empties
 * (the IPC channel never lets it empty).
 */
function invoke(handler, request) {
  globalThis[REQUEST_ID] = request.requestId;
  if (request.traceId) process.env._X_AMZN_TRACE_ID = request.traceId;
  else delete process.env._X_AMZN_TRACE_ID;
  invoking = request;
  let settled = false;
  const settle = (outcome) => {
    if (settled || invoking !== request) return;
    settled = true;
    invoking = undefined;
    if ("error" in outcome) fail(request, outcome.error);
    else respond(request, outcome.result);
  };
  const callback = (error, result) => settle(error ? { error } : { result });
  try {
    const returned = handler(JSON.parse(request.payload), lambdaContext(request, settle), callback);
    if (typeof returned?.then === "function") {
      returned.then(
        (result) => settle({ result }),
        (error) => settle({ error }),
      );
    }
  } catch (error) {
    settle({ error });
  }
}

/**
 * As on Lambda, an error nothing caught is the invocation's answer (or the init's) and then ends the
 * environment, with the runtime's exit codes.
 */
function fatal(label, error, code) {
  console.error(label, toFormatted(error));
  const request = invoking;
  invoking = undefined;
  const exit = () => process.exit(code);
  const formatted = formatError(error);
  if (request) {
    send({ type: "error", requestId: request.requestId, error: formatted, fatal: true }, exit);
  } else send({ type: "initError", error: formatted }, exit);
}

async function main() {
  patchConsole();
  process.on("uncaughtException", (error) => fatal("Uncaught Exception", error, 129));
  process.on("unhandledRejection", (reason) => {
    const error = runtimeError("Runtime.UnhandledPromiseRejection", String(reason));
    fatal("Unhandled Promise Rejection", error, 128);
  });
  // The rehearsal ended (or died): an environment outliving it would be an orphan process.
  process.on("disconnect", () => process.exit(0));
  let handler;
  try {
    handler = await loadHandler(process.env.LAMBDA_TASK_ROOT, process.env._HANDLER);
  } catch (error) {
    console.error("Uncaught Exception", toFormatted(error));
    send({ type: "initError", error: formatError(error) });
    return;
  }
  process.on("message", (message) => {
    if (message?.type === "invoke") invoke(handler, message);
  });
  send({ type: "ready" });
}

await main();
