/**
 * `reelay` command line. Each command lives in `commands/`; this file only dispatches.
 * Exit codes: 0 success, 1 the thing checked is bad (e.g. an invalid request), 2 usage or I/O errors.
 */
import { VERSION } from "@reelay/core/domain";
import { type Io, processIo } from "./io.ts";
import { UsageError } from "./usage.ts";

const HELP = `reelay — a durable pipeline in front of asynchronous video generation

Usage:
  reelay up [--port P] [--data-dir D]                 run the whole service locally (= npm start)
            [--sim-time-scale X] [--sim-max-concurrent N] [--sim-create-rate R]
                                                      the bundled simulator's speed and account limits
            [--sim-accounts NAME:CAP,...]             a simulated pool: one account per name, each with
                                                      its own key, task ids and cap (alpha:4,beta:8)
  reelay validate FILE... [--json] [--catalog FILE] [--fit]
                                                      check requests offline ("-" reads stdin); --fit:
                                                      fitted to the model, the moves printed
  reelay demo [--out DIR]                             generate one sample video end to end, locally
  reelay generate "PROMPT" [--model M] [--duration N] [--resolution R] [--aspect A] [--audio|--no-audio]
                  [--first-frame URL] [--last-frame URL] [--ref URL]... [--config key=value]...
                  [--metadata key=value]... [--user ID] [--fit]
                  [--out DIR] [--no-wait] [--json]    validate, create, follow and save one video
                                                      (--user: the end user it is for; --fit: moved to
                                                      the nearest the model allows, the moves printed)
  reelay status ID [--json]                           one job's record
  reelay jobs [--status S] [--metadata key=value]... [--expiring 24h] [--limit N] [--json]
                                                      the newest jobs; --metadata: only those carrying
                                                      every pair; --expiring: only those whose
                                                      outputs expire within the window
  reelay drop FILE... [--wait S] [--json]             put prompt files (and their material) into inbox/
  reelay batch FILE [--wait] [--quote] [--priority P] [--json]
                                                      send a JSONL file as one batch; --wait follows it
                                                      (exit 0 only if all succeeded), --quote makes nothing
  reelay batch status ID [--json] | results ID        one batch's counts, or its results as JSONL
  reelay watch [--json] [--count N]                   follow finished jobs as they happen
  reelay keys create [--name N] [--scopes S,S] [--project P] [--expires 30d|ISO]
             [--limits rate=5,max_queued=20] [--budget N [--period P] [--units]]
             [--on-sunset refuse|successor]
             | list | budget ID N|none | limits ID rate=5,...|none
             | rotate-secret ID | revoke ID           API keys (with the admin key; create prints the key
                                                      and its webhook secret once; --scopes of read, write,
                                                      webhooks, admin, default read,write: docs/api.md)
  reelay audit [--action A] [--from T] [--to T] [--limit N] [--cursor C] [--json]
                                                      the audit log of admin and webhook actions (admin
                                                      scope; a project's admin key sees its project)
  reelay retry ID [--prompt P]                        a new job from a failed or cancelled one's request;
                                                      with a batch id, a batch of its retryable failures
  reelay usage [--from D] [--to D] [--by model|key|day|batch|account] [--json]
                                                      jobs, units, cost and failures; budgets and their use
  reelay webhooks list | add URL [--events T,T] [--description D] | remove ID | rotate ID
                                                      this key's webhook subscribers (add, rotate print the secret once)
  reelay webhooks deliveries [--status S] [--event ID] | retry DELIVERY_ID | replay EVENT_ID [--subscriber S]
                                                      the webhook delivery log; attempt again; send an event again
  reelay top [--once] [--interval S] [--json]         the stack at a glance from GET /metrics (admin key):
                                                      in flight, slots, queue, throughput, 429s, failures
                                                      by code; refreshes every 2 s until Ctrl-C
  reelay mcp                                          an MCP server for agents over stdio (docs/mcp.md):
                                                      generate, wait with progress, cancel, batches, usage
  reelay doctor [--json]                              check a running reelay (REELAY_API_URL, REELAY_API_KEY):
                                                      reachable, version, the key's scopes, the upstream,
                                                      secrets, subscribers, a dry-run quote; exit 1 on a failure
  reelay models [--modality video|image] [--json]     the models, their aliases, deprecation and sunset
                                                      dates and successors (docs/models.md)
  reelay --version                                    this CLI's release
  reelay help                                         this text
`;

type Command = (args: string[], io: Io) => Promise<number>;

// Loaded on demand: `up` pulls in the whole local stack, which a `status` call should not pay for.
const commands: Record<string, () => Promise<Command>> = {
  validate: async () => (await import("./commands/validate.ts")).runValidate,
  demo: async () => (await import("./commands/demo.ts")).runDemo,
  generate: async () => (await import("./commands/generate.ts")).runGenerate,
  status: async () => (await import("./commands/status.ts")).runStatus,
  jobs: async () => (await import("./commands/jobs.ts")).runJobs,
  drop: async () => (await import("./commands/drop.ts")).runDrop,
  batch: async () => (await import("./commands/batch.ts")).runBatch,
  watch: async () => (await import("./commands/watch.ts")).runWatch,
  up: async () => (await import("./commands/up.ts")).runUp,
  keys: async () => (await import("./commands/keys.ts")).runKeys,
  audit: async () => (await import("./commands/audit.ts")).runAudit,
  retry: async () => (await import("./commands/retry.ts")).runRetry,
  usage: async () => (await import("./commands/usage.ts")).runUsage,
  webhooks: async () => (await import("./commands/webhooks.ts")).runWebhooks,
  top: async () => (await import("./commands/top.ts")).runTop,
  mcp: async () => (await import("./commands/mcp.ts")).runMcp,
  doctor: async () => (await import("./commands/doctor.ts")).runDoctor,
  models: async () => (await import("./commands/models.ts")).runModels,
};

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    io.stdout(HELP);
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V") {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (load === undefined) {
    io.stderr(`reelay: unknown command "${name}".\n\n${HELP}`);
    return 2;
  }
  try {
    const command = await load();
    return await command(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`reelay ${name}: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
