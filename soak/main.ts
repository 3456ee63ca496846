/**
 * `npm run soak -- --jobs N [--faults MIX] [--kill-every S] [--accounts N]`: runs the local stack
 * against the simulator (or a pool of simulated accounts) under a fault mix and prints one line on stdout:
 *   soak: N jobs, S succeeded, F failed {by code}, L lost, D duplicate upstream tasks, C corrupt outputs, K stuck, H slots leaked
 * (over a pool followed by `; pool of N accounts: T tasks = J jobs + F fallbacks, U unrecorded tasks, P foreign polls`).
 * Progress and every finding go to stderr. Exit 0 when clean, 1 on any finding, 2 on a usage error.
 */
import { parseArgs } from "node:util";
import { MIX_HELP, MixError, parseMix } from "./faults.ts";
import { DEFAULT_POOL_CAPACITY, parseAccounts } from "./pool.ts";
import { DEFAULTS, runSoak, tidy, type SoakOptions, type SoakResult } from "./run.ts";

const HELP = `Usage: npm run soak -- --jobs N [--faults MIX] [--kill-every S] [options]

Runs the local stack against the simulator (in this process) with a fault mix, submits N jobs through
the HTTP API, waits until each is terminal (or past its deadline plus slack), then checks every job:
exactly one terminal record and event, one upstream task, stored bytes equal to what the upstream
served, and an outcome its faults justify. Prints one line on stdout; exits 1 on any finding.

Options:
  --jobs N          how many jobs (default 300)
  --faults MIX      the fault mix (default below)
  --capacity N      the simulator allows N tasks in flight and answers 429 beyond (reelay learns it);
                    with --accounts N, the caps the accounts share (default ${DEFAULT_POOL_CAPACITY})
  --accounts N|LIST a pool of simulated accounts behind REELAY_UPSTREAMS instead of one simulator:
                    N accounts (alpha, beta, ...) with caps 1 : 2 : ... : N of --capacity, or
                    name:cap,... (alpha:4,beta:8). Also checks: tasks over all accounts = jobs +
                    recorded fallbacks, no task polled on an account that did not make it, no slot
                    held on any account at the end
  --fallback-attempts N  REELAY_FALLBACK_ATTEMPTS for the stack (default 0)
  --kill-every S    run the stack as \`reelay up\` in a child process and SIGKILL + restart it about
                    every S seconds (0.75 S to 1.25 S, seeded) until every job is terminal
  --timeout S       REELAY_JOB_TIMEOUT_S for the stack (default ${DEFAULTS.jobTimeoutS}): never_finish jobs end then
  --slack S         a job not terminal S seconds after its deadline is stuck (default ${DEFAULTS.slackS})
  --rate R          submissions per second (default ${DEFAULTS.rate})
  --seed N          seeds the deal of models, sizes and per-job faults (default: random, printed)
  --keep            keep the work dir (data dir, stack.log); one with findings is always kept
  -h, --help        this text

${MIX_HELP}
`;

function positive(
  name: string,
  raw: string | undefined,
  fallback: number,
  integer = false,
): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
    throw new MixError(
      `--${name} must be a positive ${integer ? "whole " : ""}number, got "${raw}".`,
    );
  return n;
}

function whole(name: string, raw: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n))
    throw new MixError(`--${name} must be a whole number (0 or more), got "${raw}".`);
  return n;
}

function report(result: SoakResult): void {
  const v = result.verdict;
  const seconds = (ms: number | undefined) =>
    ms === undefined ? "-" : `${(ms / 1000).toFixed(1)} s`;
  process.stderr.write(
    `soak: took ${seconds(result.elapsedMs)}, ${result.restarts} restarts, job time p50 ${seconds(result.p50Ms)} p95 ${seconds(result.p95Ms)}, ` +
      `upstream: ${result.counters.tasksCreated} tasks, ${result.counters.creates} creates (${result.counters.limited} over its cap), peak ${result.counters.peakInFlight} in flight, ${result.counters.polls} polls, ${result.counters.downloads} downloads, ` +
      `faults injected ${JSON.stringify(result.counters.faultsInjected)}\n`,
  );
  for (const a of result.accounts ?? [])
    process.stderr.write(
      `soak: account ${a.name} (cap ${a.cap}): ${a.tasksCreated} tasks, ${a.creates} creates (${a.limited} over its cap), peak ${a.peakInFlight} in flight, ${a.held} slots held at the end\n`,
    );
  const lists: [string, { jobId: string; why: string }[]][] = [
    ["lost", v.lost],
    ["duplicate", v.duplicates],
    ["corrupt", v.corrupt],
    ["stuck", v.stuck],
    ["unexpected outcome", v.unexpected],
    ["listing", v.listing],
    ["stray", v.strays],
    ["leaked slot", v.leaked],
    ["miscounted batch", v.miscounted],
    ["usage", v.usage ?? []],
    ["foreign", v.foreign],
    ["unrecorded", v.unrecorded],
  ];
  for (const [name, list] of lists)
    for (const f of list.slice(0, 20))
      process.stderr.write(`soak: ${name}: ${f.jobId}: ${f.why}\n`);
  for (const problem of result.problems) process.stderr.write(`soak: problem: ${problem}\n`);
  if (!result.ok || result.problems.length > 0)
    process.stderr.write(`soak: the work dir is kept: ${result.workDir}\n`);
}

function readArgs() {
  return parseArgs({
    options: {
      jobs: { type: "string" },
      faults: { type: "string" },
      "kill-every": { type: "string" },
      capacity: { type: "string" },
      accounts: { type: "string" },
      "fallback-attempts": { type: "string" },
      timeout: { type: "string" },
      slack: { type: "string" },
      rate: { type: "string" },
      seed: { type: "string" },
      keep: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  }).values;
}

async function main(): Promise<number> {
  let parsed: ReturnType<typeof readArgs>;
  try {
    parsed = readArgs();
  } catch (error) {
    process.stderr.write(
      `soak: ${error instanceof Error ? error.message : String(error)}\n\n${HELP}`,
    );
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(HELP);
    return 0;
  }
  let options: SoakOptions;
  try {
    options = {
      jobs: positive("jobs", parsed.jobs, 300, true),
      mix: parseMix(parsed.faults),
      ...(parsed.capacity === undefined
        ? {}
        : { capacity: positive("capacity", parsed.capacity, 0, true) }),
      ...(parsed.accounts === undefined
        ? {}
        : {
            accounts: parseAccounts(
              parsed.accounts,
              positive("capacity", parsed.capacity, DEFAULT_POOL_CAPACITY, true),
            ),
          }),
      ...(parsed["fallback-attempts"] === undefined
        ? {}
        : { fallbackAttempts: whole("fallback-attempts", parsed["fallback-attempts"]) }),
      ...(parsed["kill-every"] === undefined
        ? {}
        : { killEveryS: positive("kill-every", parsed["kill-every"], 0) }),
      jobTimeoutS: positive("timeout", parsed.timeout, DEFAULTS.jobTimeoutS, true),
      slackS: positive("slack", parsed.slack, DEFAULTS.slackS),
      rate: positive("rate", parsed.rate, DEFAULTS.rate),
      seed:
        parsed.seed === undefined
          ? Math.floor(Math.random() * 2 ** 31)
          : positive("seed", parsed.seed, 1, true),
      generationMs: DEFAULTS.generationMs,
      outputBytes: DEFAULTS.outputBytes,
      keep: parsed.keep === true,
      log: (line: string) => process.stderr.write(`${line}\n`),
    };
  } catch (error) {
    if (!(error instanceof MixError)) throw error;
    process.stderr.write(`soak: ${error.message}\n`);
    return 2;
  }
  let result: SoakResult;
  try {
    result = await runSoak(options);
  } catch (error) {
    process.stderr.write(
      `soak: the run stopped: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
  report(result);
  process.stdout.write(`${result.line}\n`);
  await tidy(result, options.keep === true);
  return result.ok && result.problems.length === 0 ? 0 : 1;
}

process.exitCode = await main();
