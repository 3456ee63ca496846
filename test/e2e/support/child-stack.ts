/**
 * The local stack as a child process (`reelay up`, as a user runs it), for tests that SIGKILL it:
 * started with only the settings given (nothing inherited), its output kept, and waited for until
 * /healthz answers.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { freePort, portTaken } from "./stack.ts";

const BIN = fileURLToPath(new URL("../../../packages/cli/bin/reelay.js", import.meta.url));
/**
 * A cap, not a wait: a start takes a few seconds alone, and a minute or more on a 2-core machine
 * loaded far past its cores (each start compiles and loads the stack, dynalite and s3rver).
 */
const READY_WITHIN_MS = 180_000;

export interface Child {
  process: ChildProcess;
  /** stdout and stderr as they came. */
  output: string[];
  /** stderr alone: the stack's log. */
  stderr: string[];
  exited: Promise<number | null>;
}

export interface ChildStackOptions {
  dataDir: string;
  /** REELAY_* settings, as a user would export them. */
  env: Record<string, string>;
  /** Extra arguments of `reelay up`. */
  args?: string[];
}

/** Every child started, so a test's afterAll can kill what is still running. */
const children: Child[] = [];

function startStack(options: ChildStackOptions, port: number): Child {
  const child = spawn(
    process.execPath,
    [BIN, "up", "--port", String(port), "--data-dir", options.dataDir, ...(options.args ?? [])],
    {
      // The test's own temporary directory, not the data dir's: the stack keeps its compiled
      // s3rver child there, so the stack's second and later starts in a run skip the compiling.
      env: { ...options.env, TMPDIR: tmpdir() },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const output: string[] = [];
  const stderr: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => {
    output.push(chunk.toString());
    stderr.push(chunk.toString());
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  const started = { process: child, output, stderr, exited };
  children.push(started);
  return started;
}

/** Until /healthz answers, the child exits (its output in the error), or the cap passes. */
async function ready(child: Child, port: number): Promise<void> {
  const until = Date.now() + READY_WITHIN_MS;
  for (;;) {
    const { exitCode, signalCode } = child.process;
    if (exitCode !== null || signalCode !== null)
      throw new Error(
        `the stack exited with ${exitCode ?? signalCode} before it was ready: ${child.output.join("")}`,
      );
    if ((await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok) return;
    if (Date.now() > until)
      throw new Error(
        `the stack on port ${port} did not answer /healthz within ${READY_WITHIN_MS / 1000} s: ${child.output.join("")}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts the stack and waits until it answers. The port came from freePort() and another test may
 * take it (or port + 1, S3's) before the child binds it: then a fresh port is tried.
 */
export async function startReady(
  options: ChildStackOptions,
  port: number,
): Promise<{ child: Child; url: string; port: number }> {
  let current = port;
  for (let attempt = 0; ; attempt++) {
    const child = startStack(options, current);
    try {
      await ready(child, current);
      return { child, url: `http://127.0.0.1:${current}`, port: current };
    } catch (error) {
      if (attempt >= 3 || !portTaken(child.output.join(""))) throw error;
      current = await freePort();
    }
  }
}

/** SIGKILLs every child still running. */
export function killChildren(): void {
  for (const child of children)
    if (child.process.exitCode === null && child.process.signalCode === null)
      child.process.kill("SIGKILL");
}

/** Kills every stack still running and waits until each has exited (so its data folder can go). */
export async function stopChildren(): Promise<void> {
  killChildren();
  await Promise.all(children.map((child) => child.exited));
}
