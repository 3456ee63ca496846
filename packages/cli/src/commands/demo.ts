/**
 * `reelay demo`: one video from a sample prompt, end to end, on this machine alone. It starts the
 * bundled upstream simulator, checks the request against the catalog, creates the task once (with
 * an idempotency key), polls it with the contract's policy and streams the video to a file.
 *
 * Until the local stack exists this drives the contract layer directly; the steps it prints are
 * the same ones the pipeline runs.
 */
import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { loadConfig, pollDelayMs, UpstreamClient, validate } from "@reelay/core";
import { startSimulator } from "@reelay/simulator";
import type { Io } from "../main.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

const SAMPLE = { model: "gamma-3.1", prompt: "a paper boat drifting down a rainy street, cinematic", duration_sec: 4 };

export async function runDemo(args: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(args, {
    options: {
      out: { type: "string" },
      // The simulator's generation time is scaled down so the demo takes seconds, not minutes.
      "time-scale": { type: "string", default: "0.1" },
    },
  });
  const timeScale = Number(values["time-scale"]);
  if (!(timeScale > 0)) throw new UsageError("--time-scale must be a positive number.");
  const config = loadConfig();
  const outDir = resolve(values.out ?? join(config.dataDir, "demo"));

  const verdict = validate(SAMPLE);
  if (!verdict.valid || verdict.normalized === null) {
    io.stderr(`sample request is invalid: ${JSON.stringify(verdict.errors)}\n`);
    return 1;
  }
  io.stdout(`request   ${JSON.stringify(verdict.normalized)}\n`);

  const apiKey = randomUUID();
  const simulator = await startSimulator({ apiKey, timeScale, generationMs: 30_000 });
  try {
    const client = new UpstreamClient({ baseUrl: simulator.url, apiKey });
    const started = Date.now();
    const created = await client.createVideo(verdict.normalized, { idempotencyKey: `demo-${randomUUID()}` });
    io.stdout(`created   upstream task ${created.taskId} on the bundled simulator (${simulator.url})\n`);

    let state = created.state;
    for (let polls = 0; state.state === "running"; polls++) {
      await sleep(Math.max(50, pollDelayMs(polls) * timeScale));
      state = (await client.getVideoTask(created.taskId)).state;
      io.stdout(`polling   ${state.status ?? state.state}  ${((Date.now() - started) / 1000).toFixed(1)} s  (${polls + 1} polls)\n`);
    }
    if (state.state === "failed") {
      io.stderr(`failed    ${state.error?.message ?? "the upstream reported a failure"}\n`);
      return 1;
    }
    const url = state.outputUrls[0];
    if (url === undefined) throw new Error("the upstream reported success without an output URL");

    await mkdir(outDir, { recursive: true });
    const file = join(outDir, `${created.taskId}.mp4`);
    const response = await fetch(url);
    if (!response.ok || response.body === null) throw new Error(`download failed with HTTP ${response.status}`);
    const hash = createHash("sha256");
    let bytes = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream), measure, createWriteStream(file));
    io.stdout(`saved     ${file}\n          ${bytes} bytes, sha256 ${hash.digest("hex")}\n`);
    return 0;
  } finally {
    await simulator.close();
  }
}
