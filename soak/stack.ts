/**
 * The local stack under soak, configured only through the settings a user exports (REELAY_*): in
 * this process for the plain soak, or as `reelay up` in a child process that can be SIGKILLed and
 * started again on the same data dir and port, as a crash and a restart would.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "@reelay/core/wiring";
import { consoleLogger, startLocalStack, type LocalStack } from "@reelay/local";
import { freePort, portTaken } from "../test/e2e/support/stack.ts";

const BIN = fileURLToPath(new URL("../packages/cli/bin/reelay.js", import.meta.url));
/** A cap, not a wait: a start takes a few seconds, and a minute or more on a loaded 2-core machine. */
const READY_TIMEOUT_MS = 180_000;

export interface StackSettings {
  dataDir: string;
  apiKey: string;
  /** The one upstream (REELAY_UPSTREAM_URL and its key), or a pool (REELAY_UPSTREAMS, JSON). */
  upstream: { url: string; apiKey: string } | { pool: string };
  /** REELAY_FALLBACK_ATTEMPTS; unset = the default (0). */
  fallbackAttempts?: number;
  jobTimeoutS: number;
  /** The stack's log lines go here (appended). */
  logFile: string;
  /** REELAY_BUDGET (JSON); unset = none. */
  budget?: string;
  /** The `reelay` CLI the child runs (another tree's packages/cli/bin/reelay.js); unset = this checkout's. */
  bin?: string;
}

export interface SoakStack {
  url: string;
  /** How many times the stack was killed and started again. */
  readonly restarts: number;
  /** SIGKILL, then start again on the same data dir and port; resolves once it answers /healthz. Child only. */
  crash?(): Promise<void>;
  /**
   * Stops the child with `signal` (SIGTERM must end it with 0), runs `between` while no stack is
   * up, then starts `bin` on the same data dir and port, as an upgrade in place does; resolves once
   * it answers /healthz. Child only.
   */
  replace?(bin: string, signal: NodeJS.Signals, between?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Some of the mix's models priced (gamma by resolution, an image model per image), the others
 * not: the usage recount covers costs and unpriced jobs both.
 */
const SOAK_PRICES = JSON.stringify({
  currency: "USD",
  models: {
    "gamma-3.1": { per_second: { default: 0.05 }, audio_per_second: 0.01 },
    "os-2": { per_second: { default: 0.025 } },
    "alpha-2.7": { per_second: { "1080p": 0.12, default: 0.08 } },
    "deltaq2-image": { per_image: { default: 0.02 }, per_reference_image: 0.005 },
  },
});

function envOf(s: StackSettings, port: number): Record<string, string> {
  return {
    REELAY_PORT: String(port),
    REELAY_DATA_DIR: s.dataDir,
    REELAY_API_KEY: s.apiKey,
    ...("pool" in s.upstream
      ? { REELAY_UPSTREAMS: s.upstream.pool }
      : { REELAY_UPSTREAM_URL: s.upstream.url, REELAY_UPSTREAM_API_KEY: s.upstream.apiKey }),
    ...(s.fallbackAttempts === undefined
      ? {}
      : { REELAY_FALLBACK_ATTEMPTS: String(s.fallbackAttempts) }),
    REELAY_JOB_TIMEOUT_S: String(s.jobTimeoutS),
    REELAY_PRICES: SOAK_PRICES,
    ...(s.budget === undefined ? {} : { REELAY_BUDGET: s.budget }),
  };
}

function fileLog(file: string): (line: string) => void {
  return (line) => appendFileSync(file, line.endsWith("\n") ? line : `${line}\n`);
}

export async function startInProcessStack(s: StackSettings): Promise<SoakStack> {
  const log = fileLog(s.logFile);
  const stack: LocalStack = await startLocalStack({
    config: loadConfig(envOf(s, await freePort())),
    s3Port: 0,
    logger: consoleLogger(log),
  });
  return { url: stack.url, restarts: 0, stop: () => stack.stop() };
}

interface Child {
  process: ChildProcess;
  exited: Promise<void>;
}

async function waitReady(url: string, child: Child, output: () => string): Promise<void> {
  let died = false;
  void child.exited.then(() => {
    died = true;
  });
  const until = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < until) {
    if (died) throw new Error(`the stack exited before it was ready: ${output().slice(-2000)}`);
    const answer = await fetch(`${url}/healthz`).catch(() => undefined);
    if (answer?.ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the stack did not answer ${url}/healthz within ${READY_TIMEOUT_MS / 1000} s`);
}

export async function startChildStack(s: StackSettings): Promise<SoakStack> {
  const log = fileLog(s.logFile);
  let port = await freePort();
  let bin = s.bin ?? BIN;
  let child: Child | undefined;
  let restarts = 0;
  let recent = "";

  const launch = async (): Promise<void> => {
    recent = "";
    const proc = spawn(
      process.execPath,
      [bin, "up", "--port", String(port), "--data-dir", s.dataDir],
      {
        // Its own tree (packages/cli/bin/reelay.js is three levels down).
        cwd: join(dirname(bin), "..", "..", ".."),
        // Only what the stack needs: the settings a user would export, nothing inherited.
        env: {
          ...envOf(s, port),
          ...(process.env.TMPDIR === undefined ? {} : { TMPDIR: process.env.TMPDIR }),
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      recent = (recent + text).slice(-20_000);
      log(text);
    };
    proc.stdout?.on("data", take);
    proc.stderr?.on("data", take);
    child = { process: proc, exited: new Promise((resolve) => proc.once("exit", () => resolve())) };
    await waitReady(`http://127.0.0.1:${port}`, child, () => recent);
  };

  // The port came from freePort(); if someone took it (or S3's, port + 1) before the child bound it, pick another.
  for (let attempt = 0; ; attempt++) {
    try {
      await launch();
      break;
    } catch (error) {
      if (attempt >= 3 || !portTaken(recent)) throw error;
      port = await freePort();
    }
  }

  const kill = async (signal: NodeJS.Signals): Promise<void> => {
    const c = child;
    if (c === undefined || c.process.exitCode !== null || c.process.signalCode !== null) return;
    c.process.kill(signal);
    await c.exited;
  };

  const stopped = (): void => {
    if (child !== undefined && child.process.exitCode !== 0) {
      throw new Error(
        `the stack ended with ${child.process.exitCode ?? child.process.signalCode} on SIGTERM: ${recent.slice(-2000)}`,
      );
    }
  };

  return {
    url: `http://127.0.0.1:${port}`,
    get restarts() {
      return restarts;
    },
    async crash() {
      await kill("SIGKILL");
      log(`--- soak: SIGKILL, starting again (${restarts + 1}) ---`);
      restarts++;
      await launch();
    },
    async replace(next, signal, between) {
      await kill(signal);
      if (signal === "SIGTERM") stopped();
      await between?.();
      log(`--- soak: ${signal}, starting ${next} on the same data dir ---`);
      bin = next;
      await launch();
    },
    async stop() {
      await kill("SIGTERM");
      stopped();
    },
  };
}

export function stackLogFile(workDir: string): string {
  return join(workDir, "stack.log");
}
