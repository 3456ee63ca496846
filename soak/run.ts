/**
 * One soak: the simulator here (so its counters and its account of the bytes it served outlive any
 * stack kill), the local stack pointed at it through REELAY_UPSTREAM_URL, jobs submitted through the
 * HTTP API at a steady rate, the stack optionally SIGKILLed and started again every few seconds,
 * then, once every job is terminal or past its deadline plus slack, the verdict (verify.ts).
 */
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JsonlFileSink } from "@reelay/core/adapters";
import { isBatchEvent, type ReelayEvent } from "@reelay/core/domain";
import type { SimAccountSpec } from "@reelay/local";
import { type Simulator, startSimulator, type SimulatorCounters } from "@reelay/simulator";
import { ApiClient } from "./client.ts";
import { formatMix, seededRandom, serverRules, type FaultMix } from "./faults.ts";
import { planJobs } from "./plan.ts";
import {
  type AccountEvidence,
  accountEvidence,
  formatAccounts,
  type SoakPool,
  startSoakPool,
} from "./pool.ts";
import {
  type StackSettings,
  stackLogFile,
  startChildStack,
  startInProcessStack,
  type SoakStack,
} from "./stack.ts";
import {
  type BatchEvidence,
  clean,
  hashUrl,
  percentile,
  summaryLine,
  verify,
  type SubmittedJob,
  type Verdict,
} from "./verify.ts";

const TERMINAL = new Set(["succeeded", "failed", "cancelled"]);
const WATCH_EVERY_MS = 2_000;
/** How often the waits for the evidence (events written, batches announced, slots freed) look again. */
const SETTLE_CHECK_MS = 250;
/** A job is terminal in its record a moment before its event is written: this long at most. */
const EVENTS_WRITTEN_WITHIN_MS = 10_000;
/**
 * A batch whose last count a SIGKILL cut off is completed by the local sweep 30 s after that count,
 * and an announcement cut off mid-way is taken over a minute after its claim.
 */
const BATCHES_ANNOUNCED_WITHIN_MS = 90_000;
/** A slot whose release a SIGKILL cut off is freed by the sweep within its grace (60 s). */
const SLOTS_FREED_WITHIN_MS = 90_000;
const PROGRESS_EVERY_MS = 10_000;
/** GET /v1/jobs/{id} calls in flight at once when the records are collected. */
const RECORD_FETCHES = 10;

export interface SoakOptions {
  jobs: number;
  mix: FaultMix;
  /** The simulator's tasks in flight at most (a create beyond answers 429); undefined = no cap. */
  capacity?: number;
  /** A pool of simulated accounts (each its own cap) instead of one simulator; `capacity` is then unused. */
  accounts?: SimAccountSpec[];
  /** REELAY_FALLBACK_ATTEMPTS for the stack; undefined = its default (0). */
  fallbackAttempts?: number;
  /** SIGKILL and restart the stack about every this many seconds (child process); undefined = in-process, no kills. */
  killEveryS?: number;
  /**
   * With killEveryS: exactly this many SIGKILLs, the soak going on until they are done even when
   * every job ended sooner; undefined = kills until every job is terminal.
   */
  kills?: number;
  /** How often the listing is read while jobs run; undefined = every 2 s. */
  watchEveryMs?: number;
  /** REELAY_JOB_TIMEOUT_S for the stack: never_finish jobs end `timeout` after this. */
  jobTimeoutS: number;
  /** A job not terminal this long after its deadline is stuck. */
  slackS: number;
  /** Submissions per second. */
  rate: number;
  seed: number;
  generationMs: [number, number];
  outputBytes: [number, number];
  /** Keep the work dir (data dir, stack log) even when the soak is clean. */
  keep?: boolean;
  log: (line: string) => void;
}

export const DEFAULTS = {
  jobTimeoutS: 45,
  slackS: 60,
  rate: 5,
  generationMs: [1_000, 3_000] as [number, number],
  outputBytes: [50_000, 1_500_000] as [number, number],
};

export interface SoakResult {
  verdict: Verdict;
  line: string;
  ok: boolean;
  restarts: number;
  elapsedMs: number;
  p50Ms: number | undefined;
  p95Ms: number | undefined;
  counters: SimulatorCounters;
  /** Over a pool: each account's own counts. */
  accounts?: Omit<AccountEvidence, "tasksByKey" | "asked" | "made">[];
  /** Problems with the run itself (a stack that would not stop cleanly). */
  problems: string[];
  workDir: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Jobs go in groups of this many: every second group as one POST /v1/batches, the others one by one. */
const GROUP = 10;

async function submitOne(job: SubmittedJob, client: ApiClient, log: (line: string) => void) {
  const { status, body } = await client.call("POST", job.endpoint, {
    body: job.body,
    headers: { "x-idempotency-key": job.key },
  });
  if (status >= 300 || typeof body?.task_id !== "string") {
    log(`soak: job ${job.index + 1} refused: HTTP ${status} ${JSON.stringify(body).slice(0, 300)}`);
    return;
  }
  job.jobId = body.task_id;
}

/** One batch of the group's requests; each job learns its id from the batch's results, line by line. */
async function submitBatch(group: SubmittedJob[], client: ApiClient, log: (line: string) => void) {
  const first = group[0]!;
  const { status, body } = await client.call("POST", "/v1/batches", {
    body: { requests: group.map((job) => job.body) },
    headers: { "x-idempotency-key": `${first.key}-batch` },
  });
  if (status !== 200 || typeof body?.id !== "string") {
    log(
      `soak: batch of jobs ${first.index + 1}.. refused: HTTP ${status} ${JSON.stringify(body).slice(0, 300)}`,
    );
    return;
  }
  const results = await client.text("GET", `/v1/batches/${body.id}/results`);
  for (const raw of results.text.split("\n").filter((line) => line !== "")) {
    const line = JSON.parse(raw) as { line: number; job_id?: string | null };
    const job = group[line.line - 1];
    if (job === undefined || typeof line.job_id !== "string") continue;
    job.jobId = line.job_id;
    job.batchId = body.id;
  }
}

export async function submitAll(
  jobs: SubmittedJob[],
  client: ApiClient,
  rate: number,
  log: (line: string) => void,
): Promise<void> {
  const began = Date.now();
  const groups: SubmittedJob[][] = [];
  for (let start = 0; start < jobs.length; start += GROUP)
    groups.push(jobs.slice(start, start + GROUP));
  const due = (job: SubmittedJob) =>
    sleep(Math.max(0, began + (job.index * 1000) / rate - Date.now()));
  const never = (what: string) => (error: unknown) =>
    log(
      `soak: ${what} never acknowledged: ${error instanceof Error ? error.message : String(error)}`,
    );
  await Promise.all(
    groups.flatMap((group, g) =>
      g % 2 === 1
        ? [
            due(group[0]!)
              .then(() => submitBatch(group, client, log))
              .catch(never(`batch ${g}`)),
          ]
        : group.map((job) =>
            due(job)
              .then(() => submitOne(job, client, log))
              .catch(never(`job ${job.index + 1}`)),
          ),
    ),
  );
}

/** Watches the listing until every acknowledged job is terminal, or past its deadline plus slack. */
async function watch(
  jobs: SubmittedJob[],
  client: ApiClient,
  opts: SoakOptions,
  submitting: () => boolean,
  stack: SoakStack,
  began: number,
  downMs: () => number = () => 0,
): Promise<void> {
  const submittedAt = new Map<string, number>();
  let lastProgress = 0;
  // Jobs waiting for an upstream slot have no deadline yet: they wait while others still end.
  let lastEnded = Date.now();
  let openBefore = Number.POSITIVE_INFINITY;
  for (;;) {
    await sleep(opts.watchEveryMs ?? WATCH_EVERY_MS);
    const listed = new Map((await client.listJobs()).map((job) => [job.id as string, job]));
    const now = Date.now();
    const ids = jobs.flatMap((job) => (job.jobId === undefined ? [] : [job.jobId]));
    for (const id of ids) if (!submittedAt.has(id)) submittedAt.set(id, now);
    const open = ids.filter((id) => !TERMINAL.has(listed.get(id)?.status));
    if (open.length < openBefore) lastEnded = now;
    openBefore = open.length;
    if (now - lastProgress >= PROGRESS_EVERY_MS) {
      lastProgress = now;
      const byStatus: Record<string, number> = {};
      for (const id of ids)
        byStatus[listed.get(id)?.status ?? "unlisted"] =
          (byStatus[listed.get(id)?.status ?? "unlisted"] ?? 0) + 1;
      opts.log(
        `soak: ${Math.round((now - began) / 1000)} s: ${ids.length}/${jobs.length} submitted ${JSON.stringify(byStatus)}, ${stack.restarts} restarts`,
      );
    }
    if (submitting()) continue;
    const waiting = open.filter((id) => {
      const job = listed.get(id);
      const deadline =
        Date.parse(job?.timings?.deadlineAt ?? "") ||
        (job?.status === "queued" ? lastEnded : (submittedAt.get(id) ?? now)) +
          opts.jobTimeoutS * 1000;
      // The time the stack was down (killed, starting again) is not the job's to lose: nothing
      // could move it then. On a loaded machine a restart takes several seconds.
      return now <= deadline + opts.slackS * 1000 + downMs();
    });
    if (waiting.length === 0) return;
  }
}

interface KillLoop {
  /** Ends the loop after a restart in progress, if any. */
  stop(): Promise<void>;
  /** Rejects when the stack could not be started again: the soak cannot go on. */
  failed: Promise<never>;
  /** Resolves once the stack has been killed and answers again `kills` times; rejects as `failed`. */
  done: Promise<void>;
  /** How long the stack has been down so far, from each SIGKILL to answering again. */
  downMs(): number;
}

/**
 * SIGKILLs and restarts the stack every killEveryS (+-25%, seeded, counted from when it answers
 * again) until stopped, or until it has been killed `kills` times.
 */
function killLoop(
  stack: SoakStack,
  everyS: number,
  kills: number,
  random: () => number,
  log: (line: string) => void,
): KillLoop {
  let stopped = false;
  let down = 0;
  let wake: () => void = () => undefined;
  const loop = (async () => {
    while (!stopped && stack.restarts < kills) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, everyS * 1000 * (0.75 + random() / 2));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopped) return;
      const t = Date.now();
      await stack.crash?.();
      down += Date.now() - t;
      log(`soak: SIGKILL #${stack.restarts}, the stack answers again after ${Date.now() - t} ms`);
    }
  })();
  const failed = loop.then(() => new Promise<never>(() => undefined));
  // Seen by whoever races `failed`; never an unhandled rejection.
  failed.catch(() => undefined);
  return {
    stop: async () => {
      stopped = true;
      wake();
      await loop.catch(() => undefined);
    },
    failed,
    done: loop,
    downMs: () => down,
  };
}

interface HeldSlots {
  /** The jobs holding a slot, over every account. */
  jobs: string[];
  /** Slots held per account (GET /v1/admission `accounts`). */
  byAccount: Record<string, number>;
}

/** Slots still held once every job ended, after the sweeps have had their chance. */
async function heldSlots(client: ApiClient): Promise<HeldSlots> {
  let held: HeldSlots = { jobs: [], byAccount: {} };
  const until = Date.now() + SLOTS_FREED_WITHIN_MS;
  for (;;) {
    const { status, body } = await client.call("GET", "/v1/admission");
    if (status !== 200) throw new Error(`GET /v1/admission answered ${status}`);
    const accounts = (body.accounts ?? []) as { name: string; held: number }[];
    held = {
      jobs: body.held as string[],
      byAccount: Object.fromEntries(accounts.map((a) => [a.name, a.held])),
    };
    if (held.jobs.length === 0 && accounts.every((a) => a.held === 0)) return held;
    if (Date.now() > until) return held;
    await sleep(SETTLE_CHECK_MS);
  }
}

/** What the soak's stack talks to: one simulator, or a pool of simulated accounts. */
export interface SoakUpstream {
  settings: StackSettings["upstream"];
  counters(): SimulatorCounters;
  task: Simulator["task"];
  pool?: SoakPool;
  close(): Promise<void>;
}

async function startUpstream(opts: SoakOptions, dataDir: string): Promise<SoakUpstream> {
  if (opts.accounts !== undefined) {
    const pool = await startSoakPool(opts.accounts, { dataDir, faults: serverRules(opts.mix) });
    return {
      settings: { pool: pool.upstreams },
      counters: () => pool.counters(),
      task: (id) => pool.owner(id)?.task(id),
      pool,
      close: () => pool.close(),
    };
  }
  const apiKey = `sim_${randomBytes(12).toString("hex")}`;
  const simulator = await startSimulator({
    apiKey,
    faults: serverRules(opts.mix),
    timeScale: 1,
    ...(opts.capacity === undefined ? {} : { maxConcurrent: opts.capacity }),
  });
  return {
    settings: { url: simulator.url, apiKey },
    counters: () => simulator.counters(),
    task: (id) => simulator.task(id),
    close: () => simulator.close(),
  };
}

/** The batches' events once each batch is announced, or after the sweeps have had their chance. */
async function batchEvents(ids: string[], sink: JsonlFileSink): Promise<ReelayEvent[]> {
  const until = Date.now() + BATCHES_ANNOUNCED_WITHIN_MS;
  for (;;) {
    const events = await sink.readEvents();
    const announced = new Set(events.flatMap((e) => (isBatchEvent(e) ? [e.detail.batchId] : [])));
    if (ids.every((id) => announced.has(id)) || Date.now() > until) return events;
    await sleep(SETTLE_CHECK_MS);
  }
}

/** Waits until every job terminal in the listing has an event written, or for the cap. */
export async function eventsWritten(
  jobs: SubmittedJob[],
  client: ApiClient,
  sink: JsonlFileSink,
): Promise<void> {
  const ids = new Set(jobs.flatMap((job) => (job.jobId === undefined ? [] : [job.jobId])));
  const until = Date.now() + EVENTS_WRITTEN_WITHIN_MS;
  for (;;) {
    const ended = (await client.listJobs()).filter(
      (job) => ids.has(job.id) && TERMINAL.has(job.status),
    );
    const told = new Set((await sink.readAll()).map((event) => event.detail.jobId));
    if (ended.every((job) => told.has(job.id)) || Date.now() > until) return;
    await sleep(SETTLE_CHECK_MS);
  }
}

function batchIds(jobs: SubmittedJob[]): string[] {
  return [...new Set(jobs.flatMap((job) => (job.batchId === undefined ? [] : [job.batchId])))];
}

/** Each batch sent, as the API counts it, with its Batch Completed events. */
async function batchEvidence(
  jobs: SubmittedJob[],
  client: ApiClient,
  events: ReelayEvent[],
): Promise<BatchEvidence[]> {
  const ids = batchIds(jobs);
  return Promise.all(
    ids.map(async (id) => {
      const { status, body } = await client.call("GET", `/v1/batches/${id}`);
      if (status !== 200) throw new Error(`GET /v1/batches/${id} answered ${status}`);
      const completed = events.flatMap((event) =>
        isBatchEvent(event) && event.detail.batchId === id ? [event.detail] : [],
      );
      return { id, total: body.total, counts: body.counts, completed };
    }),
  );
}

export async function evidenceFrom(
  jobs: SubmittedJob[],
  client: ApiClient,
  dataDir: string,
  upstream: SoakUpstream,
) {
  const ids = jobs.flatMap((job) => (job.jobId === undefined ? [] : [job.jobId]));
  const records = new Map<string, any>();
  for (let i = 0; i < ids.length; i += RECORD_FETCHES) {
    await Promise.all(
      ids.slice(i, i + RECORD_FETCHES).map(async (id) => {
        const { status, body } = await client.call("GET", `/v1/jobs/${id}`);
        if (status === 200) records.set(id, body);
      }),
    );
  }
  const listed = await client.listJobs();
  const sink = new JsonlFileSink(join(dataDir, "events.jsonl"));
  const events = await sink.readAll();
  const batches = await batchEvidence(jobs, client, await batchEvents(batchIds(jobs), sink));
  const slotsHeld = await heldSlots(client);
  const usage = await client.call("GET", "/v1/usage?from=2000-01-01&to=2100-01-01");
  if (usage.status !== 200) throw new Error(`GET /v1/usage answered ${usage.status}`);
  return {
    usage: usage.body,
    jobs,
    records,
    listed,
    events,
    tasksByKey: upstream.counters().tasksByKey,
    slotsHeld: slotsHeld.jobs,
    ...(upstream.pool === undefined
      ? {}
      : { pool: accountEvidence(upstream.pool, slotsHeld.byAccount) }),
    batches,
    served: (taskId: string) =>
      upstream.task(taskId)?.outputs.map((o) => ({ sha256: o.sha256, bytes: o.bytes })),
    stored: (output: { url: string | null; key: string }) => {
      if (output.url === null) throw new Error(`no presigned URL for ${output.key}`);
      return hashUrl(output.url);
    },
  };
}

export async function runSoak(opts: SoakOptions): Promise<SoakResult> {
  const began = Date.now();
  const workDir = await mkdtemp(join(tmpdir(), "reelay-soak-"));
  const dataDir = join(workDir, "data");
  await mkdir(dataDir);
  const random = seededRandom(opts.seed);
  const apiKey = `soak_${randomBytes(12).toString("hex")}`;
  const upstream = await startUpstream(opts, dataDir);
  const problems: string[] = [];
  const mode =
    opts.killEveryS === undefined
      ? "in-process stack"
      : `stack as a child process, SIGKILL about every ${opts.killEveryS} s`;
  const against =
    opts.accounts === undefined
      ? ""
      : `, a pool of ${opts.accounts.length} accounts (${formatAccounts(opts.accounts)}), fallback attempts ${opts.fallbackAttempts ?? 0}`;
  opts.log(
    `soak: ${opts.jobs} jobs, faults ${formatMix(opts.mix)}, ${mode}${against}, job timeout ${opts.jobTimeoutS} s, seed ${opts.seed}, work dir ${workDir}`,
  );
  let stack: SoakStack | undefined;
  try {
    const settings = {
      dataDir,
      apiKey,
      upstream: upstream.settings,
      ...(opts.fallbackAttempts === undefined ? {} : { fallbackAttempts: opts.fallbackAttempts }),
      jobTimeoutS: opts.jobTimeoutS,
      logFile: stackLogFile(workDir),
    };
    stack =
      opts.killEveryS === undefined
        ? await startInProcessStack(settings)
        : await startChildStack(settings);
    const client = new ApiClient(stack.url, apiKey);
    const jobs: SubmittedJob[] = planJobs({
      ...opts,
      random,
      runId: randomBytes(4).toString("hex"),
    }).map((job) => ({ ...job, jobId: undefined }));
    const killing =
      opts.killEveryS === undefined
        ? undefined
        : killLoop(
            stack,
            opts.killEveryS,
            opts.kills ?? Number.POSITIVE_INFINITY,
            random,
            opts.log,
          );
    let submitting = true;
    const submitted = submitAll(jobs, client, opts.rate, opts.log).finally(() => {
      submitting = false;
    });
    try {
      await Promise.race([
        watch(
          jobs,
          client,
          opts,
          () => submitting,
          stack,
          began,
          () => killing?.downMs() ?? 0,
        ),
        ...(killing === undefined ? [] : [killing.failed]),
      ]);
      if (opts.kills !== undefined) await killing?.done;
    } catch (error) {
      client.stop();
      throw error;
    } finally {
      await killing?.stop();
      await submitted;
    }
    await eventsWritten(jobs, client, new JsonlFileSink(join(dataDir, "events.jsonl")));
    const evidence = await evidenceFrom(jobs, client, dataDir, upstream);
    // For a look afterwards (the work dir is kept when something was found).
    await writeFile(
      join(workDir, "jobs.json"),
      JSON.stringify({ jobs, records: [...evidence.records.values()] }, null, 1),
    );
    const verdict = await verify(evidence);
    const result: SoakResult = {
      verdict,
      line: summaryLine(verdict),
      ok: clean(verdict),
      restarts: stack.restarts,
      elapsedMs: Date.now() - began,
      p50Ms: percentile(verdict.durationsMs, 50),
      p95Ms: percentile(verdict.durationsMs, 95),
      counters: upstream.counters(),
      ...(evidence.pool === undefined
        ? {}
        : {
            accounts: evidence.pool.map(
              ({ tasksByKey: _keys, asked: _asked, made: _made, ...counts }) => counts,
            ),
          }),
      problems,
      workDir,
    };
    return result;
  } finally {
    await stack?.stop().catch((error: unknown) => problems.push(String(error)));
    await upstream.close();
  }
}

/** Removes the work dir of a clean soak (unless asked to keep it); a soak with findings keeps it for a look. */
export async function tidy(result: SoakResult, keep: boolean): Promise<void> {
  if (!keep && result.ok && result.problems.length === 0)
    await rm(result.workDir, { recursive: true, force: true });
}
