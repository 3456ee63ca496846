/**
 * The jobs a bill is measured on: the rehearsal's stage brought up (stage.ts), video jobs created
 * through its API as a user creates them, each waited for past the gateway (so the wait adds no
 * request to the bill), then read once through the API and its video downloaded once, as a user
 * would; the stage's record of all that is the rehearsed job (record.ts).
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { JOBS_TABLE_SCHEMA } from "@reelay/core/adapters";
import { isTerminal } from "@reelay/core/domain";
import { api, expectThat, waitFor } from "../scenarios/support.ts";
import { type Stage, startStage } from "../stage.ts";
import type { RehearsedJob } from "./bill.ts";
import { markOf, rehearsedJob } from "./record.ts";

interface BillJobs {
  /** How many video jobs. */
  jobs: number;
  /** The size of each job's video (the simulator pads its MP4 to it). */
  videoBytes: number;
  log?: (line: string) => void;
}

/** The job's status as its record holds it, read past the gateway. */
async function statusOf(stage: Stage, id: string): Promise<string | undefined> {
  const { Item } = await stage.standins.ddb.send(
    new GetCommand({
      TableName: stage.tableName,
      Key: { [JOBS_TABLE_SCHEMA.partitionKey.name]: id },
    }),
  );
  return typeof Item?.status === "string" ? Item.status : undefined;
}

async function createVideo(stage: Stage, i: number, videoBytes: number): Promise<string> {
  const created = await api(stage, "POST", "/v1/video/generations", {
    model: "gamma-3.1",
    prompt: `a harbour at dawn, take ${i} [[sim:output_bytes=${videoBytes}]]`,
    duration_sec: 8,
  });
  expectThat(
    created.status === 200,
    `create answered ${created.status}: ${JSON.stringify(created.body)}`,
  );
  return String(created.body.task_id);
}

/** The user's read of the finished task, and one download of its video. */
async function readAndDownload(stage: Stage, id: string): Promise<void> {
  const task = await api(stage, "GET", `/v1/video/tasks/${id}`);
  expectThat(task.status === 200, `GET /v1/video/tasks/${id} answered ${task.status}`);
  expectThat(task.body.status === "succeeded", `job ${id} ended ${String(task.body.status)}`);
  const url = task.body.video_url;
  expectThat(typeof url === "string", `job ${id} has no video_url`);
  const video = await fetch(url);
  expectThat(video.ok, `the video of ${id} answered ${video.status}`);
  await video.arrayBuffer();
}

/** One round: the jobs created, waited for past the gateway, each read and downloaded once. */
async function round(stage: Stage, options: BillJobs, first: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < options.jobs; i++)
    ids.push(await createVideo(stage, first + i, options.videoBytes));
  for (const id of ids)
    await waitFor(`job ${id} to end`, async () =>
      isTerminal((await statusOf(stage, id)) ?? "") ? true : undefined,
    );
  await stage.idle();
  for (const id of ids) await readAndDownload(stage, id);
  await stage.idle();
  return ids;
}

/**
 * Runs two rounds of the jobs on a fresh stage and answers one job's usage in the second, on
 * average: the first starts every function's instances (cold starts), the second runs on them
 * warm, as a deployment with steady traffic does. The first round's own Lambda GB-s are logged.
 */
export async function rehearseBillJobs(options: BillJobs): Promise<RehearsedJob> {
  const log = options.log ?? (() => undefined);
  const started = performance.now();
  const stage = await startStage();
  try {
    log(
      `stage up in ${((performance.now() - started) / 1000).toFixed(0)} s; 2 rounds of ${options.jobs} video jobs`,
    );
    const cold = await rehearsedJob(stage, await round(stage, options, 0));
    const mark = markOf(stage);
    const ids = await round(stage, options, options.jobs);
    const refused = stage.gateway.refusals();
    expectThat(
      refused.length === 0,
      `the gateway refused calls: ${JSON.stringify(refused.slice(0, 3))}`,
    );
    const warm = await rehearsedJob(stage, ids, mark);
    log(
      `the functions outside the job flow, per job: ${cold.lambda.armGbSeconds.toFixed(3)} GB-s in the first round (cold starts), ${warm.lambda.armGbSeconds.toFixed(3)} warm`,
    );
    return warm;
  } finally {
    await stage.close();
  }
}
