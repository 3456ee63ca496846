/**
 * The soak's fault mix: what share of requests or jobs meets which fault, how the mix is written on
 * the command line, and how it becomes the simulator's server rules (transient faults, drawn per
 * request) and per-job prompt directives (faults that belong to one task, dealt out exactly).
 */
import type { FaultRule } from "@reelay/simulator";

/** Drawn per upstream request by the simulator: they must never fail a job. */
const TRANSIENT_FAULTS = ["rate_limit", "server_error", "reset", "slow"] as const;
/** Dealt to jobs: the first two must fail their job (with these codes), the last two must not. */
const JOB_FAULTS = ["task_fail", "never_finish", "download_error", "truncate"] as const;

type TransientFault = (typeof TRANSIENT_FAULTS)[number];
export type JobFault = (typeof JOB_FAULTS)[number];
type SoakFault = TransientFault | JobFault;
export type FaultMix = Record<SoakFault, number>;

/** The failure code a job dealt this fault must end with. */
export const EXPECTED_CODE: Partial<Record<JobFault, string>> = {
  task_fail: "upstream_task_failed",
  never_finish: "timeout",
};

export const DEFAULT_MIX: FaultMix = {
  rate_limit: 0.1,
  server_error: 0.05,
  reset: 0.02,
  slow: 0.05,
  task_fail: 0.05,
  never_finish: 0.02,
  download_error: 0.03,
  truncate: 0.02,
};

export const NO_FAULTS: FaultMix = Object.fromEntries(
  Object.keys(DEFAULT_MIX).map((k) => [k, 0]),
) as FaultMix;

/** How the simulator answers a transient fault. */
const RETRY_AFTER_S = 1;
const SLOW_MS = 2_000;

export const MIX_HELP = `MIX is "none", or comma-separated name=probability pairs that replace the defaults they name:
  ${Object.entries(DEFAULT_MIX)
    .map(([k, v]) => `${k}=${v}`)
    .join(",")}
  per upstream request: rate_limit (429, Retry-After ${RETRY_AFTER_S} s), server_error (503), reset (connection
    dropped), slow (answer ${SLOW_MS} ms late); half the server_errors and resets hit a create after the
    task is made, so only the idempotency key keeps the retry from paying twice.
  per job (dealt out exactly: round(p x jobs), at least 1 when p > 0): task_fail (must fail
    upstream_task_failed), never_finish (must fail timeout), download_error (one 503 on the download),
    truncate (one download cut at half); the last two must still succeed.`;

export class MixError extends Error {}

/** Parses `--faults`: "none", or `name=p,...` over the defaults. */
export function parseMix(text: string | undefined): FaultMix {
  if (text === undefined) return { ...DEFAULT_MIX };
  const trimmed = text.trim();
  if (trimmed === "none") return { ...NO_FAULTS };
  const mix = { ...DEFAULT_MIX };
  for (const part of trimmed
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name = "", value = ""] = part.split("=").map((s) => s.trim());
    if (!(name in mix))
      throw new MixError(
        `--faults: unknown fault "${name}"; known: ${Object.keys(mix).join(", ")}.`,
      );
    const p = Number(value);
    if (value === "" || !Number.isFinite(p) || p < 0 || p > 1)
      throw new MixError(`--faults: ${name} needs a probability from 0 to 1, got "${value}".`);
    mix[name as SoakFault] = p;
  }
  if (mix.task_fail + mix.never_finish > 1)
    throw new MixError("--faults: task_fail + never_finish must not exceed 1.");
  return mix;
}

export function formatMix(mix: FaultMix): string {
  const on = Object.entries(mix).filter(([, p]) => p > 0);
  return on.length === 0 ? "none" : on.map(([k, p]) => `${k}=${p}`).join(",");
}

/** The simulator's server-level rules for the transient part of the mix. */
export function serverRules(mix: FaultMix): FaultRule[] {
  const rules: FaultRule[] = [];
  if (mix.slow > 0) rules.push({ fault: "slow", probability: mix.slow, delayMs: SLOW_MS });
  if (mix.rate_limit > 0)
    rules.push({ fault: "rate_limit", probability: mix.rate_limit, retryAfterS: RETRY_AFTER_S });
  for (const fault of ["server_error", "reset"] as const) {
    if (mix[fault] <= 0) continue;
    // Rules are tried in order: the second one's chance is of the requests the first let through.
    const half = mix[fault] / 2;
    rules.push(
      { fault, probability: half, after: true },
      { fault, probability: half / (1 - half) },
    );
  }
  return rules;
}

/** A small seeded generator (mulberry32), so a soak's deal of jobs and faults can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

function dealCount(p: number, jobs: number): number {
  return p <= 0 ? 0 : Math.min(jobs, Math.max(1, Math.round(p * jobs)));
}

/**
 * Which job gets which per-job fault: exact counts, shuffled. A job gets at most one failing fault;
 * download faults go to jobs that will reach their download (none of a failing fault).
 */
export function dealJobFaults(
  mix: FaultMix,
  jobs: number,
  random: () => number,
): (JobFault | undefined)[] {
  const fail = dealCount(mix.task_fail, jobs);
  const never = Math.min(dealCount(mix.never_finish, jobs), jobs - fail);
  const rest = jobs - fail - never;
  const dl = Math.min(dealCount(mix.download_error, jobs), rest);
  const cut = Math.min(dealCount(mix.truncate, jobs), rest - dl);
  const deck: (JobFault | undefined)[] = [
    ...Array<JobFault>(fail).fill("task_fail"),
    ...Array<JobFault>(never).fill("never_finish"),
    ...Array<JobFault>(dl).fill("download_error"),
    ...Array<JobFault>(cut).fill("truncate"),
  ];
  while (deck.length < jobs) deck.push(undefined);
  return shuffle(deck, random);
}

/** The prompt directive that gives a task its fault: the simulator reads it from the prompt. */
export function directiveFor(fault: JobFault): string {
  return fault === "download_error" || fault === "truncate"
    ? `[[sim:${fault} times=1]]`
    : `[[sim:${fault}]]`;
}
