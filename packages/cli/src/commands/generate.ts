/**
 * `reelay generate "prompt" --model M [...] [--metadata k=v ...] [--user ID] [--fit] [--out DIR] [--no-wait] [--json]`: validates the request
 * locally (nothing is sent when it is invalid; a model the built-in catalog does not know is left to
 * the server, which may know it as an alias of REELAY_MODEL_ALIASES or from its own catalog; with
 * --fit, X-Reelay-Fit: nearest, checked fitted and its moves printed on creation), uploads the frames and references given as local
 * files (POST /v1/uploads), creates the job, follows it with live progress,
 * then saves the video as `<taskId>.mp4` after checking its sha256 against the job's record.
 * Exit 0 saved (or created, with --no-wait), 1 invalid request or failed job, 2 usage or connection.
 */
import { randomUUID } from "node:crypto";
import { join, resolve } from "node:path";
import { checkMetadata, type Issue, ReelayError, validate } from "@reelay/core/domain";
import { loadConfig, type Config } from "@reelay/core/wiring";
import { downloadVerified } from "../client/download.ts";
import { progressLine } from "../client/progress.ts";
import { uploadLocalMaterial, withPendingUploads } from "../client/local-material.ts";
import { buildVideoRequest } from "../client/request.ts";
import { formatIssues, openSession, reportFailures } from "../client/session.ts";
import type { ReelayApiClient } from "../client/api.ts";
import type { JobView } from "../client/types.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

export const DEFAULT_OUT_DIR = "reelay-output";
const POLL_INTERVAL_MS = 1000;

const OPTIONS = {
  model: { type: "string", short: "m" },
  duration: { type: "string" },
  resolution: { type: "string" },
  aspect: { type: "string" },
  audio: { type: "boolean" },
  // node:util parseArgs on Node 20 has no negated flags, so --no-audio is its own option.
  "no-audio": { type: "boolean" },
  "first-frame": { type: "string" },
  "last-frame": { type: "string" },
  ref: { type: "string", multiple: true },
  config: { type: "string", multiple: true },
  metadata: { type: "string", multiple: true },
  out: { type: "string" },
  /** The end user the job is for (X-Reelay-User). */
  user: { type: "string" },
  /** X-Reelay-Fit: nearest. */
  fit: { type: "boolean", default: false },
  "no-wait": { type: "boolean", default: false },
  json: { type: "boolean", default: false },
} as const;

/** `--metadata k=v`, repeatable: the pairs, a key given twice refused; undefined when none is given. */
export function metadataPairs(given: string[] | undefined): Record<string, string> | undefined {
  if (given === undefined || given.length === 0) return undefined;
  const pairs: Record<string, string> = {};
  for (const pair of given) {
    const at = pair.indexOf("=");
    if (at < 1) throw new UsageError(`--metadata takes KEY=VALUE, not ${JSON.stringify(pair)}.`);
    const key = pair.slice(0, at);
    if (Object.hasOwn(pairs, key)) throw new UsageError(`--metadata ${key} is given twice.`);
    pairs[key] = pair.slice(at + 1);
  }
  return pairs;
}

/**
 * Nothing is sent for a request validate() refuses, but for the model's name alone: the server's
 * catalog and aliases may know a name the built-in catalog does not, and it is the server's to judge.
 */
function refuseInvalid(body: unknown, fit: boolean): void {
  const verdict = validate(body, { fit: fit ? "nearest" : undefined });
  const errors = verdict.errors.filter((issue) => issue.code !== "unknown_model");
  if (errors.length === 0) return;
  const [first] = errors;
  throw new ReelayError(
    "invalid_request",
    `The request is invalid, so nothing was sent: ${first?.message ?? ""}`,
    {
      ...(first === undefined ? {} : { path: first.path }),
      details: { errors },
    },
  );
}

async function follow(
  client: ReelayApiClient,
  id: string,
  io: Io,
  opts: { json: boolean; startedAt: number },
): Promise<JobView> {
  const { json } = opts;
  const progress = progressLine(io.stdout, !json && io.terminal.stdout, opts.startedAt);
  try {
    return await client.waitFor(id, {
      intervalMs: POLL_INTERVAL_MS,
      onProgress: (current) => !json && progress.update(current.status, current.polls),
    });
  } finally {
    progress.done();
  }
}

/** Saves a succeeded job's video after checking it; reports a failed one. */
async function saveOrReport(
  io: Io,
  client: ReelayApiClient,
  job: JobView,
  opts: { id: string; outDir: string | undefined; json: boolean },
): Promise<number> {
  const { id, json } = opts;
  const output = job.outputs[0];
  if (job.status !== "succeeded" || output === undefined) {
    const error = job.error ?? { code: job.status, message: `The job ended ${job.status}.` };
    if (json)
      io.stdout(
        `${JSON.stringify({ task_id: id, status: job.status, model: job.model, error })}\n`,
      );
    io.stderr(`reelay generate: ${id} ${job.status}: ${error.message} [${error.code}]\n`);
    return 1;
  }
  // The task endpoint presigns a fresh link; the job view's may be absent for a foreign bucket.
  const url = output.url ?? (await client.getVideoTask(id)).video_url;
  if (url === undefined || url === null)
    throw new ReelayError(
      "no_output_link",
      `${id} succeeded but reelay offers no link to its video (${output.bucket}/${output.key}).`,
    );
  const file = join(resolve(opts.outDir ?? DEFAULT_OUT_DIR), `${id}.mp4`);
  const saved = await downloadVerified(url, file, output);
  if (json) {
    io.stdout(
      `${JSON.stringify({ task_id: id, status: job.status, model: job.model, file: saved.file, bytes: saved.bytes, sha256: saved.sha256, polls: job.polls, s3: { bucket: output.bucket, key: output.key } })}\n`,
    );
  } else {
    io.stdout(`saved     ${saved.file}\n          ${saved.bytes} bytes, sha256 ${saved.sha256}\n`);
  }
  return 0;
}

export async function runGenerate(args: string[], io: Io, given?: Config): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { options: OPTIONS });
  if (values.audio && values["no-audio"])
    throw new UsageError("give either --audio or --no-audio, not both.");
  const config = given ?? loadConfig(io.env);
  const json = values.json;
  const body = buildVideoRequest({
    prompt: positionals.length > 0 ? positionals.join(" ") : undefined,
    model: values.model ?? config.defaultModel,
    duration: values.duration,
    resolution: values.resolution,
    aspect: values.aspect,
    audio: values.audio ? true : values["no-audio"] ? false : undefined,
    firstFrame: values["first-frame"],
    lastFrame: values["last-frame"],
    refs: values.ref,
    config: values.config,
  });
  const metadata = metadataPairs(values.metadata);

  return reportFailures(io, "generate", json, async () => {
    refuseInvalid(withPendingUploads(body), values.fit);
    // Checked here as reelay checks it, so nothing is sent over the limits.
    if (metadata !== undefined) checkMetadata(metadata, "--metadata");
    const { client } = await openSession(io, config);
    const startedAt = Date.now();
    const request = await uploadLocalMaterial(body, (bytes, name) =>
      client.createUpload(bytes, name),
    );
    const created = await client.createVideo(request, `cli-${randomUUID()}`, {
      metadata,
      user: values.user,
      fit: values.fit ? "nearest" : undefined,
    });
    const id = created.service_task?.task_id ?? created.task_id;
    if (!json) {
      io.stdout(`created   ${id} (${created.model}) at ${client.apiUrl}\n`);
      if (created.warnings.length > 0)
        io.stdout(formatIssues(created.warnings as Issue[], "warning"));
      for (const { path, from, to } of created.adjustments ?? [])
        io.stdout(`fitted    ${path}: ${JSON.stringify(from)} -> ${JSON.stringify(to)}\n`);
    }
    if (values["no-wait"]) {
      if (json)
        io.stdout(
          `${JSON.stringify({ task_id: id, status: created.status, model: created.model, warnings: created.warnings, ...(created.adjustments === undefined ? {} : { adjustments: created.adjustments }) })}\n`,
        );
      else io.stdout(`follow it with \`reelay status ${id}\`\n`);
      return 0;
    }
    const job = await follow(client, id, io, { json, startedAt });
    return saveOrReport(io, client, job, { id, outDir: values.out, json });
  });
}
