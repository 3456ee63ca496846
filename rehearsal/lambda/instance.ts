/**
 * One execution environment: a Node 22 process running bootstrap.mjs, which loads the handler and
 * then answers one invocation at a time over the IPC channel. This side hands out the lines the
 * function prints, its messages once every line printed before them has been handed out, and the
 * process's peak memory.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { fileURLToPath } from "node:url";

const BOOTSTRAP = fileURLToPath(new URL("./bootstrap.mjs", import.meta.url));
export const RUNTIME_DIR = fileURLToPath(new URL(".", import.meta.url));

export interface RapidError {
  errorType: string;
  errorMessage: string;
  trace?: string[];
}

/** What the bootstrap sends (its header comment has the protocol). */
type RuntimeMessage =
  | { type: "ready" }
  | { type: "initError"; error: RapidError }
  | { type: "result"; requestId: string; bytes: number; payload?: string }
  | { type: "error"; requestId: string; error: RapidError; fatal?: boolean };

/** What waiting on the process can end with besides a message. */
export type Outcome =
  | RuntimeMessage
  | { type: "timeout" }
  | { type: "exit"; code: number | null; signal: NodeJS.Signals | null };

interface InvokeRequest {
  requestId: string;
  payload: string;
  deadlineMs: number;
  arn: string;
  traceId?: string;
  maxResponseBytes: number;
}

interface InstanceOptions {
  nodePath: string;
  nodeArgs: string[];
  env: Record<string, string>;
  cwd: string;
  /** Each line the function prints, without its newline. */
  onLine: (line: string) => void;
}

export class Instance {
  /** VmHWM of the process, in MB, as last read. */
  peakMb = 0;
  private readonly child: ChildProcess;
  private readonly flush = `\u001eREHEARSAL-FLUSH-${randomUUID()}\u001e`;
  private readonly messages: RuntimeMessage[] = [];
  private readonly flushes = { stdout: 0, stderr: 0 };
  private exit?: Extract<Outcome, { type: "exit" }>;
  private wake?: () => void;

  constructor(options: InstanceOptions) {
    this.child = spawn(options.nodePath, [...options.nodeArgs, BOOTSTRAP, this.flush], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    this.child.on("message", (message: RuntimeMessage) => {
      this.messages.push(message);
      this.wake?.();
    });
    this.child.on("error", () => {
      // A process that could not start closes too; `close` reports it.
    });
    this.child.on("close", (code, signal) => {
      this.exit = { type: "exit", code, signal };
      this.wake?.();
    });
    this.read(this.child.stdout, "stdout", options.onLine);
    this.read(this.child.stderr, "stderr", options.onLine);
  }

  get alive(): boolean {
    return this.exit === undefined;
  }

  /** Idle and fit for another invocation: alive, and nothing said since its last answer. */
  get usable(): boolean {
    return this.alive && this.messages.length === 0;
  }

  send(request: InvokeRequest): void {
    this.child.send({ type: "invoke", ...request }, (error) => {
      // A process that ended meanwhile cannot take it: next() answers with its exit instead.
      if (error && this.alive) void this.kill();
    });
  }

  /** The next message, its printed lines handed out first; or the exit, or `timeout` past ms. */
  async next(ms: number): Promise<Outcome> {
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        timedOut = true;
        resolve();
      }, ms);
    });
    try {
      for (;;) {
        const ready = this.ready();
        if (ready) return ready;
        if (timedOut) return { type: "timeout" };
        await Promise.race([new Promise<void>((resolve) => (this.wake = resolve)), deadline]);
      }
    } finally {
      clearTimeout(timer);
      this.wake = undefined;
    }
  }

  private ready(): Outcome | undefined {
    const flushed = Math.min(this.flushes.stdout, this.flushes.stderr);
    if (this.messages.length > 0 && flushed > 0) {
      this.flushes.stdout--;
      this.flushes.stderr--;
      return this.messages.shift();
    }
    return this.exit;
  }

  /** Reads VmHWM while the process lives (Lambda's "Max Memory Used" is the environment's peak). */
  readPeak(): number {
    try {
      const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
      const kb = Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
      this.peakMb = Math.max(this.peakMb, Math.round(kb / 1024));
    } catch {
      // Gone already: the last reading stands.
    }
    return this.peakMb;
  }

  async kill(): Promise<void> {
    if (this.exit) return;
    const closed = new Promise<void>((resolve) => this.child.once("close", () => resolve()));
    this.child.kill("SIGKILL");
    await closed;
  }

  private read(stream: Readable | null, name: "stdout" | "stderr", onLine: (line: string) => void) {
    if (!stream) return;
    const decoder = new StringDecoder("utf8");
    let partial = "";
    const line = (text: string) => {
      if (!text.endsWith(this.flush)) {
        onLine(text);
        return;
      }
      // A line the function left unfinished ends at the marker.
      const before = text.slice(0, -this.flush.length);
      if (before) onLine(before);
      this.flushes[name]++;
      this.wake?.();
    };
    stream.on("data", (chunk: Buffer) => {
      const lines = (partial + decoder.write(chunk)).split("\n");
      partial = lines.pop() ?? "";
      for (const text of lines) line(text);
    });
    stream.on("end", () => {
      const rest = partial + decoder.end();
      if (rest) line(rest);
    });
  }
}
