/**
 * `npm run soak:long-run -- --jobs 20000`: the figures of a local stack that lives long (
 * point 7). Starts `reelay up --sim-time-scale 0.02` as a child process on a fresh data dir, reads
 * each process's resident memory (VmRSS from /proc: the stack and its dynalite and s3rver children),
 * posts jobs N at a time, each round once the last one is terminal, then stops the stack cleanly and
 * starts it again on the same data dir. Prints the figures beside their bounds:
 *   - each process's RSS after the jobs (and after the next start) within 1.5x of its fresh figure,
 *   - the next start to healthy within 1 s of the fresh start,
 *   - at most 10 KB of data per finished job after the clean stop, besides the generated files
 *     themselves (the user's results, as large as the upstream makes them).
 * Memory is read after 30 s idle, as the process holds it and again after a full GC (through the
 * inspector, which SIGUSR1 opens): the bound is on the second, what the process keeps, since what an
 * idle V8 heap holds beyond that depends on when it last collected. Memory and bytes on disk do not
 * depend on the CPU's speed or the machine's load; the start times do, so they are taken as the best
 * of five starts. A child's figure is read from whichever process has its role now: the dynalite
 * child recycles itself past 1.4x its fresh RSS (packages/local/src/dynalite/start.ts), and the
 * summary says how many times each child was started again. Exit 0 when every bound is met, 1
 * otherwise, 2 on a usage error.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { freePort } from "../test/e2e/support/stack.ts";
import { ApiClient } from "./client.ts";

const BIN = fileURLToPath(new URL("../packages/cli/bin/reelay.js", import.meta.url));
const READY_TIMEOUT_MS = 120_000;
const RSS_BOUND = 1.5;
const START_BOUND_MS = 1_000;
const BYTES_PER_JOB_BOUND = 10_000;
/**
 * Idle time before a memory reading, fresh or after the jobs: V8 shrinks an idle heap in a few
 * collections about 8 s apart, so a reading is of what is kept, not of a burst's garbage.
 */
const SETTLE_MS = 30_000;
/** Starts timed per reading: the best of them is the figure (a start's time depends on load). */
const STARTS = 5;
/** Where SIGUSR1 opens a Node process's inspector. */
const INSPECTOR_PORT = 9229;

const HELP = `Usage: npm run soak:long-run -- [--jobs N] [--round N] [--time-scale X] [--retention-days D] [--keep]

Runs \`reelay up\` on a fresh data dir, posts --jobs jobs (default 20000) --round at a time (default
40), each round once the previous one is terminal, and prints each process's RSS (fresh, every
1,000 jobs, after the jobs, after the next start), the data dir's size and the start-to-healthy time
fresh and after, beside their bounds. Exit 1 when a bound is missed.
`;

const PROCESSES = ["stack", "dynalite", "s3rver"] as const;
type ProcessName = (typeof PROCESSES)[number];
type Rss = Record<ProcessName, number>;

interface Options {
  jobs: number;
  round: number;
  timeScale: number;
  retentionDays: number | undefined;
  keep: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`;
const log = (line: string) => process.stderr.write(`long-run: ${line}\n`);

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kb) * 1024;
}

/** An output file's bytes as s3rver stores them: `<bucket>/outputs/<job id>/<name>._S3rver_object`. */
const OUTPUT_PAYLOAD = /\/outputs\/(?!batches\/)[^/]+\/(?!job\.json\.)[^/]+\._S3rver_object$/;

interface DataSize {
  total: number;
  /** Blocks the files take on disk: s3rver keeps three files an object, each at least a block. */
  allocated: number;
  /** The generated files themselves (the upstream decides their size): all but reelay's own data. */
  outputs: number;
  parts: Record<string, number>;
}

/** Every file's size under `dir`, the outputs' share, and the share of each top-level entry. */
async function sizeOf(dir: string): Promise<DataSize> {
  let outputs = 0;
  let allocated = 0;
  const walk = async (path: string): Promise<number> => {
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) return 0;
    if (!info.isDirectory()) {
      if (OUTPUT_PAYLOAD.test(path)) outputs += info.size;
      allocated += info.blocks * 512;
      return info.size;
    }
    let sum = 0;
    for (const name of await readdir(path)) sum += await walk(join(path, name));
    return sum;
  };
  const parts: Record<string, number> = {};
  for (const name of await readdir(dir)) parts[name] = await walk(join(dir, name));
  return { total: Object.values(parts).reduce((a, b) => a + b, 0), allocated, outputs, parts };
}

interface Running {
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Spawn to ready: /healthz answers 200 and the banner is printed (leftover jobs resumed). */
  startMs: number;
  /** The stack's own figure, from its banner ("reelay is up (0.9 s)"). */
  ownMs: number;
  pids: Record<ProcessName, number>;
}

async function startStack(dataDir: string, apiKey: string, o: Options): Promise<Running> {
  const port = await freePort();
  const began = performance.now();
  const child = spawn(
    process.execPath,
    [
      BIN,
      "up",
      "--port",
      String(port),
      "--data-dir",
      dataDir,
      "--sim-time-scale",
      String(o.timeScale),
    ],
    {
      env: {
        PATH: process.env.PATH ?? "",
        REELAY_API_KEY: apiKey,
        ...(o.retentionDays === undefined
          ? {}
          : { REELAY_RETENTION_DAYS: String(o.retentionDays) }),
        ...(process.env.TMPDIR === undefined ? {} : { TMPDIR: process.env.TMPDIR }),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const take = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  let died = false;
  void exited.then(() => {
    died = true;
  });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (died) throw new Error(`the stack exited before it was ready: ${output.slice(-2000)}`);
    if (Date.now() > until) throw new Error(`the stack did not answer ${url}/healthz in time`);
    const banner = /reelay is up \(([\d.]+) s\)/.exec(output);
    const answer =
      banner === null ? undefined : await fetch(`${url}/healthz`).catch(() => undefined);
    if (banner !== null && answer?.ok) {
      const startMs = performance.now() - began;
      const health = (await answer.json()) as {
        children?: Record<string, { pid?: number }>;
      };
      const pidOf = (name: string) => {
        const pid = health.children?.[name]?.pid;
        if (typeof pid !== "number") throw new Error(`/healthz names no ${name} pid`);
        return pid;
      };
      return {
        url,
        child,
        exited,
        startMs,
        ownMs: Number(banner[1]) * 1000,
        pids: { stack: child.pid ?? 0, dynalite: pidOf("dynalite"), s3rver: pidOf("s3rver") },
      };
    }
    await sleep(20);
  }
}

async function stopStack(stack: Running): Promise<void> {
  stack.child.kill("SIGTERM");
  const code = await stack.exited;
  if (code !== 0) throw new Error(`the stack ended with ${code} on SIGTERM`);
}

/** The children as /healthz reports them now: each one's pid and how many times it was started again. */
async function childrenNow(
  stack: Running,
): Promise<Record<string, { pid?: number; restarts?: number }>> {
  const health = (await (await fetch(`${stack.url}/healthz`)).json()) as {
    children?: Record<string, { pid?: number; restarts?: number }>;
  };
  return health.children ?? {};
}

/** Each process's pid now: a child started again (after a recycle or a crash) has a new one. */
async function pidsNow(stack: Running): Promise<Running["pids"]> {
  const children = await childrenNow(stack);
  const pid = (name: "dynalite" | "s3rver") => children[name]?.pid ?? stack.pids[name];
  return { stack: stack.pids.stack, dynalite: pid("dynalite"), s3rver: pid("s3rver") };
}

/** How many times each child was started again (the dynalite child's recycles among them). */
async function restartsNow(stack: Running): Promise<string> {
  return Object.entries(await childrenNow(stack))
    .map(([name, child]) => `${name} ${child.restarts ?? 0}`)
    .join(", ");
}

async function readRss(stack: Running): Promise<Rss> {
  const out = {} as Rss;
  const pids = await pidsNow(stack);
  for (const name of PROCESSES) out[name] = await rssOf(pids[name]);
  return out;
}

/** One Chrome DevTools Protocol call over `socket`. */
function cdp(socket: WebSocket, id: number, method: string, params = {}): Promise<unknown> {
  return new Promise((resolve) => {
    const listener = (event: MessageEvent) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
      if (message.id !== id) return;
      socket.removeEventListener("message", listener);
      resolve(message.result);
    };
    socket.addEventListener("message", listener);
    socket.send(JSON.stringify({ id, method, params }));
  });
}

/**
 * The process's RSS once V8 has collected its garbage: SIGUSR1 opens the inspector on
 * 127.0.0.1:9229, a full collection runs through it, and the inspector is closed again. What an
 * idle heap holds beyond its live objects depends on when V8 last collected, not on how many jobs
 * came before; this reading does not. Undefined when the inspector could not be reached (the port
 * taken by another process).
 */
async function collectedRss(pid: number): Promise<number | undefined> {
  process.kill(pid, "SIGUSR1");
  let socket: WebSocket | undefined;
  try {
    let targets: { webSocketDebuggerUrl: string }[] | undefined;
    for (let tries = 0; targets === undefined && tries < 50; tries++) {
      await sleep(100);
      targets = await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`)
        .then((answer) => answer.json() as Promise<{ webSocketDebuggerUrl: string }[]>)
        .catch(() => undefined);
    }
    const url = targets?.[0]?.webSocketDebuggerUrl;
    if (url === undefined) return undefined;
    const open = new WebSocket(url);
    socket = open;
    await new Promise((resolve, reject) => {
      open.addEventListener("open", resolve);
      open.addEventListener("error", reject);
    });
    const who = (await cdp(open, 1, "Runtime.evaluate", {
      expression: "process.pid",
      returnByValue: true,
    })) as { result?: { value?: number } };
    if (who.result?.value !== pid) return undefined;
    await cdp(open, 2, "HeapProfiler.collectGarbage");
    await sleep(1_000);
    const rss = await rssOf(pid);
    // The inspector's command line API has `require`, in an ES module's process too.
    void cdp(open, 3, "Runtime.evaluate", {
      expression: 'require("node:inspector").close()',
      includeCommandLineAPI: true,
    });
    // The port is free again before the next process is asked.
    for (let tries = 0; tries < 50; tries++) {
      await sleep(100);
      const still = await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`).catch(
        () => undefined,
      );
      if (still === undefined) break;
    }
    return rss;
  } catch {
    return undefined;
  } finally {
    socket?.close();
  }
}

async function readCollectedRss(stack: Running): Promise<Partial<Rss>> {
  const out: Partial<Rss> = {};
  const pids = await pidsNow(stack);
  for (const name of PROCESSES) {
    const rss = await collectedRss(pids[name]);
    if (rss !== undefined) out[name] = rss;
  }
  return out;
}

const TERMINAL = new Set(["succeeded", "failed", "cancelled"]);

/** Posts `count` jobs at once and returns when each is terminal: their final statuses. */
async function runRound(client: ApiClient, count: number, round: number): Promise<string[]> {
  const ids = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const { status, body } = await client.call("POST", "/v1/video/generations", {
        body: {
          model: "gamma-3.1",
          prompt: `long run ${round}-${i}: a paper boat in the rain`,
          duration_sec: 4,
          aspect_ratio: "16:9",
          generate_audio: false,
        },
        headers: { "x-idempotency-key": `long-run-${round}-${i}` },
      });
      if (status >= 300 || typeof body?.task_id !== "string")
        throw new Error(`a create answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
      return body.task_id as string;
    }),
  );
  const statuses = new Map<string, string>();
  while (statuses.size < ids.length) {
    await sleep(200);
    for (const id of ids) {
      if (statuses.has(id)) continue;
      const { status, body } = await client.call("GET", `/v1/jobs/${id}`);
      if (status !== 200) throw new Error(`GET /v1/jobs/${id} answered ${status}`);
      if (TERMINAL.has(body.status)) statuses.set(id, body.status as string);
    }
  }
  return [...statuses.values()];
}

/** The best of `STARTS` starts on `dataDir` (each stopped cleanly but the last), and the last one running. */
async function timedStart(
  dataDir: string,
  apiKey: string,
  o: Options,
): Promise<{ bestMs: number; all: number[]; own: number[]; stack: Running }> {
  const all: number[] = [];
  const own: number[] = [];
  for (let i = 0; ; i++) {
    const stack = await startStack(dataDir, apiKey, o);
    all.push(stack.startMs);
    own.push(stack.ownMs);
    if (i === STARTS - 1) return { bestMs: Math.min(...all), all, own, stack };
    await stopStack(stack);
  }
}

function readOptions(): Options | undefined {
  const { values } = parseArgs({
    options: {
      jobs: { type: "string" },
      round: { type: "string" },
      "time-scale": { type: "string" },
      "retention-days": { type: "string" },
      keep: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return undefined;
  const num = (name: string, raw: string | undefined, fallback: number) => {
    const n = raw === undefined ? fallback : Number(raw);
    if (!(n > 0)) throw new Error(`--${name} must be a positive number, got "${raw}".`);
    return n;
  };
  return {
    jobs: Math.floor(num("jobs", values.jobs, 20_000)),
    round: Math.floor(num("round", values.round, 40)),
    timeScale: num("time-scale", values["time-scale"], 0.02),
    retentionDays:
      values["retention-days"] === undefined
        ? undefined
        : num("retention-days", values["retention-days"], 1),
    keep: values.keep === true,
  };
}

function rssLine(label: string, rss: Partial<Rss>, fresh?: Partial<Rss>): string {
  const one = (name: ProcessName): string => {
    const value = rss[name];
    if (value === undefined) return `${name} n/a`;
    const base = fresh?.[name];
    return `${name} ${mb(value)}${base === undefined ? "" : ` (${(value / base).toFixed(2)}x)`}`;
  };
  return `${label}: ${PROCESSES.map(one).join(", ")}`;
}

/** Both readings of a moment: as the process holds it after SETTLE_MS idle, and after a full GC. */
async function readBoth(stack: Running): Promise<{ raw: Rss; kept: Partial<Rss> }> {
  await sleep(SETTLE_MS);
  const raw = await readRss(stack);
  return { raw, kept: await readCollectedRss(stack) };
}

async function main(): Promise<number> {
  let o: Options | undefined;
  try {
    o = readOptions();
  } catch (error) {
    process.stderr.write(`long-run: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (o === undefined) {
    process.stdout.write(HELP);
    return 0;
  }
  const workDir = await mkdtemp(join(tmpdir(), "reelay-long-run-"));
  const dataDir = join(workDir, "data");
  const apiKey = randomBytes(18).toString("base64url");
  const began = Date.now();
  let ok = true;
  const out: string[] = [];
  const check = (what: string, met: boolean) => {
    if (!met) ok = false;
    out.push(`${met ? "ok    " : "MISSED"} ${what}`);
  };
  try {
    const fresh = await timedStart(dataDir, apiKey, o);
    let stack = fresh.stack;
    const freshBoth = await readBoth(stack);
    const freshRss = freshBoth.raw;
    log(
      `fresh start ${fresh.all.map((ms) => ms.toFixed(0)).join(", ")} ms; ${rssLine("fresh", freshRss)}; ${rssLine("after a full GC", freshBoth.kept)}`,
    );
    const client = new ApiClient(stack.url, apiKey);
    const peak: Rss = { ...freshRss };
    const counts: Record<string, number> = {};
    let done = 0;
    let round = 0;
    let nextReport = 1_000;
    while (done < o.jobs) {
      const count = Math.min(o.round, o.jobs - done);
      for (const status of await runRound(client, count, round++))
        counts[status] = (counts[status] ?? 0) + 1;
      done += count;
      const now = await readRss(stack);
      for (const name of PROCESSES) peak[name] = Math.max(peak[name], now[name]);
      if (done >= nextReport || done === o.jobs) {
        nextReport += 1_000;
        const size = await sizeOf(dataDir);
        log(
          `${done} jobs, ${((Date.now() - began) / 1000).toFixed(0)} s: ${rssLine("rss", now, freshRss)}; data ${mb(size.total)}`,
        );
      }
    }
    const afterBoth = await readBoth(stack);
    const restarts = await restartsNow(stack);
    const runningSize = await sizeOf(dataDir);
    await stopStack(stack);
    const stoppedSize = await sizeOf(dataDir);
    const after = await timedStart(dataDir, apiKey, o);
    stack = after.stack;
    const restartBoth = await readBoth(stack);
    await stopStack(stack);

    const finished = Object.values(counts).reduce((a, b) => a + b, 0);
    out.push(
      `long-run: ${finished} jobs ${JSON.stringify(counts)} in ${o.round}s, sim time scale ${o.timeScale}, ${((Date.now() - began) / 1000).toFixed(0)} s`,
      rssLine("rss fresh (after a full GC)", freshBoth.kept),
      `children started again during the jobs (recycles and crashes): ${restarts}`,
      rssLine("rss after the jobs (after a full GC)", afterBoth.kept, freshBoth.kept),
      rssLine("rss after the next start (after a full GC)", restartBoth.kept, freshBoth.kept),
      rssLine(`rss fresh (${SETTLE_MS / 1000} s idle, as held)`, freshRss),
      rssLine("rss peak (read after each round)", peak, freshRss),
      rssLine(`rss after the jobs (${SETTLE_MS / 1000} s idle, as held)`, afterBoth.raw, freshRss),
      rssLine(
        `rss after the next start (${SETTLE_MS / 1000} s idle, as held)`,
        restartBoth.raw,
        freshRss,
      ),
      `start to healthy: fresh ${fresh.bestMs.toFixed(0)} ms, after ${after.bestMs.toFixed(0)} ms (best of ${STARTS}: ${fresh.all.map((ms) => ms.toFixed(0)).join("/")}, ${after.all.map((ms) => ms.toFixed(0)).join("/")}; the stack's own figure ${fresh.own.map((ms) => (ms / 1000).toFixed(1)).join("/")} s, ${after.own.map((ms) => (ms / 1000).toFixed(1)).join("/")} s)`,
      `data: ${mb(runningSize.total)} while running, ${mb(stoppedSize.total)} after a clean stop (${Object.entries(
        stoppedSize.parts,
      )
        .filter(([, bytes]) => bytes >= 1024)
        .map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(0)} KB`)
        .join(
          ", ",
        )}), of which the generated files ${mb(stoppedSize.outputs)}; ${mb(stoppedSize.allocated)} of disk blocks`,
    );
    // The bound is on what each process keeps: RSS after a full GC, fresh and after.
    for (const name of PROCESSES) {
      const base = freshBoth.kept[name];
      for (const [when, reading] of [
        ["after the jobs", afterBoth.kept[name]],
        ["after the next start", restartBoth.kept[name]],
      ] as const) {
        if (base === undefined || reading === undefined) {
          check(`${name} RSS ${when}: no reading after a full GC (inspector unreachable)`, false);
          continue;
        }
        check(
          `${name} RSS ${when} ${(reading / base).toFixed(2)}x fresh, after a full GC (bound ${RSS_BOUND}x)`,
          reading <= RSS_BOUND * base,
        );
      }
    }
    check(
      `next start ${((after.bestMs - fresh.bestMs) / 1000).toFixed(2)} s later than a fresh one (bound ${START_BOUND_MS / 1000} s)`,
      after.bestMs - fresh.bestMs <= START_BOUND_MS,
    );
    // The generated files are the user's results, as large as the upstream makes them (the
    // simulator's video is 7.9 KB, a real one megabytes): the bound is on everything else.
    const jobs = Math.max(1, finished);
    const perJob = (stoppedSize.total - stoppedSize.outputs) / jobs;
    check(
      `data ${(perJob / 1000).toFixed(1)} KB per finished job after a clean stop, besides the generated files (${(stoppedSize.total / jobs / 1000).toFixed(1)} KB with them) (bound ${BYTES_PER_JOB_BOUND / 1000} KB)`,
      perJob <= BYTES_PER_JOB_BOUND,
    );
  } catch (error) {
    ok = false;
    out.push(
      `long-run: the run stopped: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  process.stdout.write(`${out.join("\n")}\n`);
  if (o.keep || !ok) log(`the work dir is kept: ${workDir}`);
  else await rm(workDir, { recursive: true, force: true });
  return ok ? 0 : 1;
}

process.exitCode = await main();
