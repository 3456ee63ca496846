/**
 * `reelay drop FILE... [--wait S] [--json]`: puts files into the local stack's `inbox/`, material
 * first and prompt files last (a prompt may name material by bare file name, and it must exist when
 * the prompt is read), then reports per prompt file the jobs it made or why it was rejected.
 * Exit 0 when every prompt file was accepted, 1 when any was rejected or unanswered, 2 usage/connection.
 */
import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import { loadConfig } from "@reelay/core/wiring";
import { classifyDropKey } from "@reelay/core/usecases";
import { Inbox } from "../client/inbox.ts";
import { awaitDropOutcome, type DropReport } from "../client/drop-outcome.ts";
import { openSession, reportFailures } from "../client/session.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

const INBOX = "inbox/";

export async function runDrop(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: { wait: { type: "string", default: "15" }, json: { type: "boolean", default: false } },
  });
  if (positionals.length === 0)
    throw new UsageError(
      "give at least one FILE to drop (prompt files: .json, .jsonl, .txt; material: images, videos, audio).",
    );
  const waitS = Number(values.wait);
  if (!(waitS >= 0))
    throw new UsageError(`--wait must be a number of seconds, got "${values.wait}".`);
  const files = await describeFiles(positionals);
  const json = values.json;
  const config = loadConfig(io.env);

  return reportFailures(io, "drop", json, async () => {
    const { client } = await openSession(io, config);
    const inbox = Inbox.fromHealth(await client.health(), client.apiUrl);
    try {
      const uploaded: { file: string; key: string; etag: string; prompt: boolean }[] = [];
      for (const file of files) {
        const etag = await inbox.put(file.key, file.path);
        uploaded.push({ file: file.path, key: file.key, etag, prompt: file.prompt });
        if (json && !file.prompt)
          io.stdout(
            `${JSON.stringify({ file: file.path, key: file.key, status: "uploaded", bytes: file.bytes })}\n`,
          );
        if (!json) io.stdout(`uploaded  ${file.key} (${file.bytes} bytes)\n`);
      }
      let exit = 0;
      for (const file of uploaded.filter((item) => item.prompt)) {
        const report = await awaitDropOutcome({
          client,
          inbox,
          key: file.key,
          etag: file.etag,
          text: await readFile(file.file, "utf8"),
          defaultModel: config.defaultModel,
          waitMs: waitS * 1000,
        });
        if (report.status !== "accepted") exit = 1;
        io.stdout(json ? `${JSON.stringify({ file: file.file, ...report })}\n` : describe(report));
      }
      return exit;
    } finally {
      inbox.close();
    }
  });
}

interface DropFile {
  path: string;
  key: string;
  bytes: number;
  prompt: boolean;
}

/** Every file must exist before anything is uploaded, and two files may not claim one inbox name. */
async function describeFiles(paths: string[]): Promise<DropFile[]> {
  const files: DropFile[] = [];
  const keys = new Set<string>();
  for (const path of paths) {
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot read ${path}: ${error.code ?? String(error)}`);
    });
    if (!info.isFile()) throw new UsageError(`${path} is not a file.`);
    const key = INBOX + basename(path);
    if (keys.has(key)) throw new UsageError(`two files would both land at ${key}; rename one.`);
    keys.add(key);
    files.push({ path, key, bytes: info.size, prompt: classifyDropKey(key) !== "material" });
  }
  // Stable sort: material keeps its order, then the prompt files in theirs.
  return files.sort((a, b) => Number(a.prompt) - Number(b.prompt));
}

function describe(report: DropReport): string {
  const lines: string[] = [];
  const jobs = report.jobs.map((job) => `${job.id} (${job.status})`).join(", ");
  if (report.status === "accepted") {
    const batch = report.batchId === undefined ? "" : ` as batch ${report.batchId}`;
    lines.push(`accepted  ${report.key}${batch} -> ${jobs}`);
  } else if (report.status === "pending")
    lines.push(`pending   ${report.key}: ${report.message}${jobs ? `; so far ${jobs}` : ""}`);
  else {
    lines.push(
      `${report.status === "rejected" ? "rejected" : "partly rejected"}  ${report.key} -> ${report.rejectedKey}: ${report.message}`,
    );
    for (const error of report.errors)
      lines.push(`  ${error.where}: ${error.message} [${error.code}]`);
    if (jobs) lines.push(`  accepted: ${jobs}`);
  }
  return `${lines.join("\n")}\n`;
}
