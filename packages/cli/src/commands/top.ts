/**
 * `reelay top [--once] [--interval S] [--json]`: the stack at a glance, from its GET /metrics
 * (admin key): upstream tasks in flight against the slot limit, the queue and its oldest job, jobs
 * finished a minute, 429s a minute and their share of upstream requests, failures by code, the
 * detection delay's and end-to-end time's p50 and p95. Rates
 * come from successive scrapes over the last 5 minutes, so the first screen shows totals only;
 * `--once` prints that one screen and exits. A deployment without /metrics (AWS, where the same
 * metrics go to CloudWatch) is one line and exit 2.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { isReelayError } from "@reelay/core/domain";
import type { ReelayApiClient } from "../client/api.ts";
import { openSession, reportFailures } from "../client/session.ts";
import type { Io } from "../io.ts";
import { renderFrame, topFrame } from "../top/frame.ts";
import { parseMetrics, type Scrape } from "../top/scrape.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

/** Rates are taken over this much history, like a dashboard's "last 5 minutes". */
const WINDOW_MS = 5 * 60_000;
/** Clears a terminal and puts the cursor top left, so each screen replaces the last. */
const CLEAR = "\x1b[H\x1b[2J";

async function scrape(client: ReelayApiClient): Promise<Scrape> {
  const text = await client.metrics();
  return parseMetrics(text, Date.now());
}

/** Keeps the scrapes of the window, and the one just before it, so the window is always full. */
function keep(scrapes: Scrape[], now: number): Scrape[] {
  const start = scrapes.findIndex((s) => s.at >= now - WINDOW_MS);
  return start <= 0 ? scrapes : scrapes.slice(start - 1);
}

function head(url: string, everyS: number | undefined): string {
  const time = new Date().toISOString().slice(11, 19);
  const refresh = everyS === undefined ? "" : `, every ${everyS} s, Ctrl-C to stop`;
  return `reelay top  ${url}  ${time} UTC${refresh}`;
}

export async function runTop(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: {
      once: { type: "boolean", default: false },
      interval: { type: "string", default: "2" },
      json: { type: "boolean", default: false },
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}".`);
  const everyS = Number(values.interval);
  if (!Number.isFinite(everyS) || everyS < 0.5)
    throw new UsageError(
      `--interval must be a number of seconds, at least 0.5, got "${values.interval}".`,
    );
  return reportFailures(io, "top", values.json, async () => {
    const { client } = await openSession(io);
    let scrapes: Scrape[];
    try {
      scrapes = [await scrape(client)];
    } catch (error) {
      if (!isReelayError(error) || error.status !== 404) throw error;
      io.stderr(
        `reelay top: ${client.apiUrl} has no /metrics: this deployment sends its metrics elsewhere (on AWS, CloudWatch namespace "reelay"); reelay top reads a local stack.\n`,
      );
      return 2;
    }
    const show = (every: number | undefined) => {
      const frame = topFrame(scrapes);
      io.stdout(
        values.json ? `${JSON.stringify(frame)}\n` : renderFrame(frame, head(client.apiUrl, every)),
      );
    };
    if (values.once) {
      show(undefined);
      return 0;
    }
    return refresh(client, io, { everyS, json: values.json, scrapes, show });
  });
}

/** Screen after screen until Ctrl-C; a failed scrape is one line, and the next one tries again. */
async function refresh(
  client: ReelayApiClient,
  io: Io,
  run: { everyS: number; json: boolean; scrapes: Scrape[]; show: (every: number) => void },
): Promise<number> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  const clear = !run.json && io.terminal.stdout;
  try {
    for (;;) {
      if (clear) io.stdout(CLEAR);
      run.show(run.everyS);
      await sleep(run.everyS * 1000, undefined, { signal: stop.signal });
      try {
        run.scrapes.push(await scrape(client));
        run.scrapes.splice(0, run.scrapes.length, ...keep(run.scrapes, Date.now()));
      } catch (error) {
        if (!isReelayError(error)) throw error;
        io.stderr(`reelay top: ${error.message} (trying again)\n`);
      }
    }
  } catch (error) {
    if (stop.signal.aborted) return 0;
    throw error;
  } finally {
    process.off("SIGINT", onSignal);
  }
}
