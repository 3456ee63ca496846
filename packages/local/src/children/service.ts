/**
 * A child process as a service of this one: the stand-ins' databases (dynalite, s3rver) run in
 * children so their work is on another core than the flows and the API. A child speaks in JSON
 * lines on its stdout, the first saying it is ready or, as {"error": {code, message}}, why it
 * cannot start; it ends when its stdin closes: at stop, and when this process exits or is killed
 * (the pipe closes with it), so no child outlives the stack.
 */
import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import type { Readable } from "node:stream";

/** How long a stopping child (dynalite, s3rver) may take to close its store before it is killed. */
const CHILD_STOP_MS = 10_000;

/** How a child ended on its own: it exited with a code, or a signal ended it. */
export type ChildEnd = { code: number } | { signal: NodeJS.Signals };

export interface ChildService<T> {
  /** The first line the child printed. */
  ready: T;
  /** Every later line, parsed. */
  lines: EventEmitter<{ line: [unknown] }>;
  pid: number;
  /**
   * Settles when the child is gone: with how it ended (its exit code, or the signal that ended it)
   * when it ended on its own, with undefined when stop() ended it.
   */
  ended: Promise<ChildEnd | undefined>;
  /** Closes the child's stdin (it stops itself) and waits for it; killed past CHILD_STOP_MS. */
  stop(): Promise<void>;
}

/** A child's refusal to start, with the code it gave (EADDRINUSE: the port is taken). */
function refusal(
  script: string,
  error: { code?: string; message?: string },
): NodeJS.ErrnoException {
  return Object.assign(
    new Error(error.message ?? `${script} did not start`),
    error.code === undefined ? {} : { code: error.code },
  );
}

/**
 * `node [nodeArgs] script args` as a service of this process: resolves with the JSON line it prints
 * once ready, or rejects with the refusal it printed instead. The child ends when its stdin closes:
 * at stop, and when this process exits or is killed. What it writes to stderr goes to `stderr` line
 * by line (the stack's log), else to this process's stderr.
 */
export async function spawnService<T>(
  script: string,
  args: string[],
  nodeArgs: string[] = [],
  stderr?: (line: string) => void,
  /** The child's whole environment; undefined = this process's. */
  env?: Record<string, string>,
): Promise<ChildService<T>> {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
    ...(env === undefined ? {} : { env }),
  });
  onLines(child.stderr, stderr ?? ((line) => process.stderr.write(`${line}\n`)));
  let stopping = false;
  const ended = new Promise<ChildEnd | undefined>((resolve) =>
    child.once("exit", (code, signal) =>
      resolve(stopping ? undefined : signal === null ? { code: code ?? 0 } : { signal }),
    ),
  );
  // A child that died already makes ending its stdin fail (EPIPE): it is gone either way.
  child.stdin.on("error", () => undefined);
  const lines = new EventEmitter<{ line: [unknown] }>();
  const ready = await new Promise<T>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      reject(new Error(`${script} exited (${code ?? signal}) before it was ready`)),
    );
    onJsonLines(child.stdout, (parsed, first) => {
      if (first) resolve(parsed as T);
      else lines.emit("line", parsed);
    });
  });
  const stop = async () => {
    stopping = true;
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), CHILD_STOP_MS);
    await ended;
    clearTimeout(timer);
  };
  const { error } = ready as { error?: { code?: string; message?: string } };
  if (typeof error === "object" && error !== null) {
    await stop();
    throw refusal(script, error);
  }
  return { ready, lines, pid: child.pid ?? 0, ended, stop };
}

/** Calls `onLine` with each non-empty line of `stream`. */
function onLines(stream: Readable, onLine: (text: string) => void): void {
  let buffered = "";
  stream.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      const text = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (text.trim() !== "") onLine(text);
    }
  });
}

/** Calls `onLine` with each line of `stream` that parses as JSON, `first` true for the first one. */
function onJsonLines(stream: Readable, onLine: (parsed: unknown, first: boolean) => void): void {
  let started = false;
  onLines(stream, (text) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return; // Not one of the child's lines (a library printing): never a reason to fail here.
    }
    onLine(parsed, !started);
    started = true;
  });
}
