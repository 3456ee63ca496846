/**
 * What a command reads and writes, passed in so a command can be run against the process's own
 * streams and environment (`processIo`) or, in a test, against strings and a given environment.
 */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
  /** Where a command reads its REELAY_* settings (loadConfig's env). */
  env: NodeJS.ProcessEnv;
  /** Whether stdout and stderr are terminals: progress is drawn in place there, in lines elsewhere. */
  terminal: { stdout: boolean; stderr: boolean };
}

export function processIo(): Io {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
    env: process.env,
    terminal: { stdout: process.stdout.isTTY === true, stderr: process.stderr.isTTY === true },
  };
}
