/**
 * One Lambda function of the synthesized template, run on this machine as Lambda runs it: each
 * execution environment a Node 22 process (instance.ts, bootstrap.mjs) with exactly the function's
 * environment (environment.ts), one invocation at a time, a concurrent invocation starting another
 * up to maxInstances, idle ones reused warm, the timeout enforced by ending the process, and the
 * figures a report needs (durations, billed time, cold starts, peak memory, log bytes).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { lambdaEnvironment, logStreamName, memoryArgs, reservedKeysIn } from "./environment.ts";
import { Instance, type Outcome, RUNTIME_DIR, type RapidError } from "./instance.ts";

export interface FunctionSpec {
  /** The function's name (AWS_LAMBDA_FUNCTION_NAME). */
  name: string;
  arn: string;
  /** "functions/api.handler": file functions/api.mjs below codeDir, its export `handler`. */
  handler: string;
  /** The bundle's folder (LAMBDA_TASK_ROOT). */
  codeDir: string;
  /** The template's Variables, already resolved. */
  environment: Record<string, string>;
  /** What the rehearsal adds to reach its stand-ins (AWS_ENDPOINT_URL...), kept apart from the template's so a report can tell them apart. */
  standinEnvironment: Record<string, string>;
  memoryMb: number;
  timeoutS: number;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken: string };
  nodePath: string;
  /** Tracing Active: set _X_AMZN_TRACE_ID per invocation and AWS_XRAY_DAEMON_ADDRESS to this UDP address. */
  xrayDaemonAddress?: string;
  /** Each log line the function prints (stdout and stderr), for the rehearsal's logs. */
  onLog?: (line: string) => void;
  /** Default 10. */
  maxInstances?: number;
}

export type InvokeResult =
  | { ok: true; payload: unknown }
  | {
      ok: false;
      errorType: string;
      errorMessage: string;
      trace?: string[];
      timedOut?: boolean;
      initError?: boolean;
    };

export interface Invocation {
  result: InvokeResult;
  /** The invoke phase, as REPORT's Duration (0 when the init failed and the handler never ran). */
  durationMs: number;
  /** Rounded up to 1 ms; since August 2025 a cold start's init is billed too, so it is included. */
  billedMs: number;
  coldStart: boolean;
  /** REPORT's Init Duration: the process's start up to the handler loaded, on a cold start. */
  initDurationMs?: number;
  /** The response payload's size as Lambda would return it (the result's JSON, or the error's). */
  responseBytes: number;
  requestId: string;
}

export interface FunctionStats {
  invocations: number;
  coldStarts: number;
  errors: number;
  timeouts: number;
  peakMemoryMb: number;
  longestMs: number;
  totalBilledMs: number;
  logBytes: number;
  /** Lines logged: CloudWatch Logs meters each event at its bytes plus 26 (docs/performance.md). */
  logLines: number;
  /**
   * Of those, the X-Ray SDK's complaints that an invocation has no trace context: Lambda gives
   * one to every invocation of a function with Active tracing, the rehearsal only when given a
   * daemon address, so these lines are the rehearsal's own and the bill leaves them out.
   */
  untracedLogBytes: number;
  untracedLogLines: number;
  maxResponseBytes: number;
  /** "errorType: errorMessage" of each distinct init failure, e.g. a setting the module requires. */
  initErrors: string[];
}

/** Lambda's synchronous response limit, as its error states it (6 MiB and 100 bytes). */
const MAX_RESPONSE_BYTES = 6_291_556;
/** What the X-Ray SDK logs at each traced call made with no trace context. */
const NO_TRACE_CONTEXT = "Missing AWS Lambda trace data for X-Ray";
/** Lambda gives an on-demand environment's INIT phase 10 seconds. */
const INIT_TIMEOUT_MS = 10_000;

/** A place to run one invocation: an idle instance, or leave to start a new one. */
interface Slot {
  instance?: Instance;
}

interface Started {
  instance?: Instance;
  initMs: number;
  failure?: InvokeResult & { ok: false };
}

export class LambdaFunction {
  private readonly spec: FunctionSpec;
  private readonly maxInstances: number;
  private readonly idleInstances: Instance[] = [];
  private readonly everyInstance = new Set<Instance>();
  private readonly waiting: ((slot: Slot) => void)[] = [];
  private readonly idleWaiters: (() => void)[] = [];
  private live = 0;
  private running = 0;
  private closed = false;
  private readonly totals: FunctionStats = {
    invocations: 0,
    coldStarts: 0,
    errors: 0,
    timeouts: 0,
    peakMemoryMb: 0,
    longestMs: 0,
    totalBilledMs: 0,
    logBytes: 0,
    logLines: 0,
    untracedLogBytes: 0,
    untracedLogLines: 0,
    maxResponseBytes: 0,
    initErrors: [],
  };

  constructor(spec: FunctionSpec) {
    const reserved = reservedKeysIn(spec.environment);
    if (reserved.length > 0) {
      throw new Error(
        `${spec.name}: Lambda was unable to configure your environment variables because the environment variables you have provided contains reserved keys that are currently not supported for modification. Reserved keys used in this request: ${reserved.join(", ")}`,
      );
    }
    this.spec = spec;
    this.maxInstances = spec.maxInstances ?? 10;
  }

  /** RequestResponse. */
  async invoke(event: unknown): Promise<Invocation> {
    if (this.closed) throw new Error(`${this.spec.name} is closed`);
    this.running++;
    try {
      const invocation = await this.run(event);
      this.record(invocation);
      return invocation;
    } finally {
      this.running--;
      if (this.running === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  /**
   * InvocationType Event: queued and run like any invocation, its errors only counted. Lambda
   * would retry a failed one twice, minutes apart; the rehearsal does not, so idle() stays short.
   */
  invokeAsync(event: unknown): void {
    this.invoke(event).catch(() => {
      // Closed before it ran: an event Lambda would have dropped too.
    });
  }

  /** Resolves when no invocation (sync or async) is running or waiting. */
  idle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stats(): FunctionStats {
    return { ...this.totals, initErrors: [...this.totals.initErrors] };
  }

  /** Ends every instance; invocations still running answer Runtime.ExitError. */
  async close(): Promise<void> {
    this.closed = true;
    for (const resolve of this.waiting.splice(0)) resolve({});
    await Promise.all([...this.everyInstance].map((instance) => instance.kill()));
  }

  private async run(event: unknown): Promise<Invocation> {
    const requestId = randomUUID();
    const payload = JSON.stringify(event) ?? "null";
    const slot = await this.acquire();
    if (this.closed) throw new Error(`${this.spec.name} is closed`);
    if (slot.instance) return await this.execute(slot.instance, requestId, payload);
    const started = await this.start(requestId);
    if (started.instance) return await this.execute(started.instance, requestId, payload, started);
    this.release();
    return this.initFailed(requestId, started);
  }

  private acquire(): Promise<Slot> {
    for (let warm = this.idleInstances.pop(); warm; warm = this.idleInstances.pop()) {
      if (warm.usable) return Promise.resolve({ instance: warm });
      // It ended while idle (an error nothing caught in a timer, say): its place is free again.
      this.everyInstance.delete(warm);
      this.live--;
      void warm.kill();
    }
    if (this.live < this.maxInstances) {
      this.live++;
      return Promise.resolve({});
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** An instance back to the pool, or (none: it ended) its place to whoever waits for one. */
  private release(instance?: Instance): void {
    const next = this.waiting.shift();
    if (instance?.alive && !this.closed) {
      if (next) next({ instance });
      else this.idleInstances.push(instance);
      return;
    }
    if (instance) this.everyInstance.delete(instance);
    if (next) next({});
    else this.live--;
  }

  /** A cold start: the process, then its INIT phase (the handler's module loaded). */
  private async start(requestId: string): Promise<Started> {
    const stream = logStreamName();
    const env = lambdaEnvironment(this.spec, RUNTIME_DIR, stream);
    const instance = new Instance({
      nodePath: this.spec.nodePath,
      nodeArgs: memoryArgs(this.spec.memoryMb, env.NODE_OPTIONS),
      env,
      cwd: this.spec.codeDir,
      onLine: (line) => this.log(line),
    });
    this.everyInstance.add(instance);
    const began = performance.now();
    const outcome = await instance.next(INIT_TIMEOUT_MS);
    const initMs = performance.now() - began;
    this.peak(instance);
    if (outcome.type === "ready") return { instance, initMs };
    await instance.kill();
    this.everyInstance.delete(instance);
    return { initMs, failure: initFailure(outcome, requestId) };
  }

  private initFailed(requestId: string, started: Started): Invocation {
    const failure = started.failure ?? exitFailure(requestId, null, null);
    this.log(
      `INIT_REPORT Init Duration: ${started.initMs.toFixed(2)} ms\tPhase: init\tStatus: error\tError Type: ${failure.errorType}`,
    );
    const billedMs = Math.ceil(started.initMs);
    this.log(`START RequestId: ${requestId} Version: $LATEST`);
    this.log(`END RequestId: ${requestId}`);
    this.log(
      `REPORT RequestId: ${requestId}\tDuration: 0.00 ms\tBilled Duration: ${billedMs} ms\tMemory Size: ${this.spec.memoryMb} MB\tMax Memory Used: ${this.totals.peakMemoryMb} MB\tStatus: error\tError Type: ${failure.errorType}`,
    );
    return {
      result: failure,
      durationMs: 0,
      billedMs,
      coldStart: true,
      initDurationMs: started.initMs,
      responseBytes: errorBytes(failure),
      requestId,
    };
  }

  /** The INVOKE phase on an initialized instance, bounded by the function's timeout. */
  private async execute(
    instance: Instance,
    requestId: string,
    payload: string,
    cold?: Started,
  ): Promise<Invocation> {
    const timeoutMs = this.spec.timeoutS * 1000;
    this.log(`START RequestId: ${requestId} Version: $LATEST`);
    const began = performance.now();
    instance.send({
      requestId,
      payload,
      deadlineMs: Date.now() + timeoutMs,
      arn: this.spec.arn,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      ...(this.spec.xrayDaemonAddress === undefined ? {} : { traceId: traceHeader() }),
    });
    const outcome = await instance.next(timeoutMs);
    const durationMs = Math.min(performance.now() - began, timeoutMs);
    this.peak(instance);
    const { result, responseBytes, recycle } = this.answer(outcome, requestId);
    if (recycle) await instance.kill();
    this.release(instance);
    const billedMs = Math.ceil(durationMs + (cold?.initMs ?? 0));
    this.logEnd(requestId, durationMs, billedMs, instance.peakMb, cold?.initMs, result);
    return {
      result,
      durationMs,
      billedMs,
      coldStart: cold !== undefined,
      ...(cold ? { initDurationMs: cold.initMs } : {}),
      responseBytes,
      requestId,
    };
  }

  /**
   * What the caller gets for what the process did, and whether that process must end: after a
   * timeout, a crash, an error nothing caught, or an oversized response (the runtime exits when
   * Lambda refuses its response), the next invocation cold-starts, as on Lambda.
   */
  private answer(
    outcome: Outcome,
    requestId: string,
  ): { result: InvokeResult; responseBytes: number; recycle: boolean } {
    if (outcome.type === "result") {
      if (outcome.payload === undefined) {
        const result = tooLarge();
        return { result, responseBytes: outcome.bytes, recycle: true };
      }
      const result = { ok: true as const, payload: JSON.parse(outcome.payload) as unknown };
      return { result, responseBytes: outcome.bytes, recycle: false };
    }
    if (outcome.type === "error") {
      const result = { ok: false as const, ...outcome.error };
      return { result, responseBytes: errorBytes(result), recycle: outcome.fatal === true };
    }
    const result =
      outcome.type === "timeout"
        ? timedOut(requestId, this.spec.timeoutS)
        : outcome.type === "exit"
          ? exitFailure(requestId, outcome.code, outcome.signal)
          : exitFailure(requestId, null, null);
    return { result, responseBytes: errorBytes(result), recycle: true };
  }

  /**
   * END and REPORT as Lambda writes them, and its timeout line. They are counted in logBytes:
   * CloudWatch ingests (and bills) the platform's lines with the function's.
   */
  private logEnd(
    requestId: string,
    durationMs: number,
    billedMs: number,
    maxUsedMb: number,
    initMs: number | undefined,
    result: InvokeResult,
  ): void {
    this.log(`END RequestId: ${requestId}`);
    const init = initMs === undefined ? "" : `Init Duration: ${initMs.toFixed(2)} ms\t`;
    const status = result.ok
      ? ""
      : result.timedOut
        ? "Status: timeout\t"
        : result.errorType === "Runtime.ExitError"
          ? `Status: error\tError Type: ${result.errorType}\t`
          : "";
    this.log(
      `REPORT RequestId: ${requestId}\tDuration: ${durationMs.toFixed(2)} ms\tBilled Duration: ${billedMs} ms\tMemory Size: ${this.spec.memoryMb} MB\tMax Memory Used: ${maxUsedMb} MB\t${init}${status}`,
    );
    if (!result.ok && result.timedOut) {
      const message = `Task timed out after ${this.spec.timeoutS.toFixed(2)} seconds`;
      this.log(`${new Date().toISOString()} ${requestId} ${message}`);
    }
  }

  private log(line: string): void {
    this.totals.logBytes += Buffer.byteLength(line) + 1;
    this.totals.logLines += 1;
    if (this.spec.xrayDaemonAddress === undefined && line.includes(NO_TRACE_CONTEXT)) {
      this.totals.untracedLogBytes += Buffer.byteLength(line) + 1;
      this.totals.untracedLogLines += 1;
    }
    this.spec.onLog?.(line);
  }

  private peak(instance: Instance): void {
    this.totals.peakMemoryMb = Math.max(this.totals.peakMemoryMb, instance.readPeak());
  }

  private record(invocation: Invocation): void {
    const totals = this.totals;
    const { result } = invocation;
    totals.invocations++;
    if (invocation.coldStart) totals.coldStarts++;
    totals.longestMs = Math.max(totals.longestMs, invocation.durationMs);
    totals.totalBilledMs += invocation.billedMs;
    totals.maxResponseBytes = Math.max(totals.maxResponseBytes, invocation.responseBytes);
    if (result.ok) return;
    totals.errors++;
    if (result.timedOut) totals.timeouts++;
    const initError = `${result.errorType}: ${result.errorMessage}`;
    if (result.initError && !totals.initErrors.includes(initError)) {
      totals.initErrors.push(initError);
    }
  }
}

function initFailure(outcome: Outcome, requestId: string): InvokeResult & { ok: false } {
  if (outcome.type === "initError") return { ok: false, initError: true, ...outcome.error };
  if (outcome.type === "timeout") {
    return { ...timedOut(requestId, INIT_TIMEOUT_MS / 1000), initError: true };
  }
  const exit = outcome.type === "exit" ? outcome : { code: null, signal: null };
  return { ...exitFailure(requestId, exit.code, exit.signal), initError: true };
}

/** Lambda's own wording for a timeout, in the "RequestId: ... Error: ..." form of its faults. */
function timedOut(requestId: string, seconds: number): InvokeResult & { ok: false } {
  return {
    ok: false,
    timedOut: true,
    errorType: "Sandbox.Timedout",
    errorMessage: `RequestId: ${requestId} Error: Task timed out after ${seconds.toFixed(2)} seconds`,
  };
}

function exitFailure(
  requestId: string,
  code: number | null,
  signal: NodeJS.Signals | null,
): InvokeResult & { ok: false } {
  const how = signal
    ? `signal: ${signal === "SIGKILL" ? "killed" : signal}`
    : `exit status ${code}`;
  return {
    ok: false,
    errorType: "Runtime.ExitError",
    errorMessage: `RequestId: ${requestId} Error: Runtime exited with error: ${how}`,
  };
}

function tooLarge(): InvokeResult & { ok: false } {
  return {
    ok: false,
    errorType: "Function.ResponseSizeTooLarge",
    errorMessage: `Response payload size exceeded maximum allowed payload size (${MAX_RESPONSE_BYTES} bytes).`,
  };
}

function errorBytes(result: InvokeResult & { ok: false }): number {
  const body: RapidError = { errorType: result.errorType, errorMessage: result.errorMessage };
  if (result.trace) body.trace = result.trace;
  return Buffer.byteLength(JSON.stringify(body));
}

/** An X-Ray header as Lambda passes it to a traced, sampled invocation. */
function traceHeader(): string {
  const epoch = Math.floor(Date.now() / 1000).toString(16);
  return `Root=1-${epoch}-${randomBytes(12).toString("hex")};Parent=${randomBytes(8).toString("hex")};Sampled=1`;
}
