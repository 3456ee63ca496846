/**
 * `reelay` command line. Each command lives in `commands/`; this file only dispatches.
 * Exit codes: 0 success, 1 the thing checked is bad (e.g. an invalid request), 2 usage or I/O errors.
 */
import { runDemo } from "./commands/demo.ts";
import { runDrop } from "./commands/drop.ts";
import { runGenerate } from "./commands/generate.ts";
import { runJobs } from "./commands/jobs.ts";
import { runStatus } from "./commands/status.ts";
import { runUp } from "./commands/up.ts";
import { runWatch } from "./commands/watch.ts";
import { runValidate } from "./commands/validate.ts";
import { UsageError } from "./usage.ts";

const HELP = `reelay — a durable pipeline in front of asynchronous video generation

Usage:
  reelay up [--port P] [--data-dir D] [--sim-time-scale X]  run the whole service locally (= npm start)
  reelay validate FILE... [--json] [--catalog FILE]   check requests offline ("-" reads stdin)
  reelay demo [--out DIR]                             generate one sample video end to end, locally
  reelay generate "PROMPT" [--model M] [--duration N] [--resolution R] [--aspect A] [--audio|--no-audio]
                  [--first-frame URL] [--last-frame URL] [--ref URL]... [--config key=value]...
                  [--out DIR] [--no-wait] [--json]    validate, create, follow and save one video
  reelay status ID [--json]                           one job's record
  reelay jobs [--status S] [--limit N] [--json]       the newest jobs
  reelay drop FILE... [--wait S] [--json]             put prompt files (and their material) into inbox/
  reelay watch [--json] [--count N]                   follow finished jobs as they happen
  reelay help                                         this text
`;

type Command = (args: string[], io: Io) => Promise<number>;

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
}

const commands: Record<string, Command> = {
  validate: runValidate,
  demo: runDemo,
  generate: runGenerate,
  status: runStatus,
  jobs: runJobs,
  drop: runDrop,
  watch: runWatch,
  up: runUp,
};

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    io.stdout(HELP);
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (command === undefined) {
    io.stderr(`reelay: unknown command "${name}".\n\n${HELP}`);
    return 2;
  }
  try {
    return await command(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`reelay ${name}: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

function processIo(): Io {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
  };
}
