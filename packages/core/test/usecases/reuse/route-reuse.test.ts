/**
 * Who makes the upstream task when identical requests with reuse arrive together, against dynalite
 * (the real DynamoDB API): submitJob through two job stores with their own clients, as two API
 * instances would be. The starter only records what it was given (what it starts is the admission
 * queue, tested in test/e2e/reuse.test.ts).
 */
import { join } from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobStore } from "../../../src/adapters/dynamodb/job-table.ts";
import { JsonlFileSink } from "../../../src/adapters/events/jsonl-events.ts";
import type { Job } from "../../../src/domain/jobs/types.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import { type SubmitDeps, submitJob } from "../../../src/usecases/jobs/submit-job.ts";
import { startLocalAws, type LocalAws } from "../../support/local-aws.ts";
import { UNWATCHED } from "../../support/unwatched.ts";

let aws: LocalAws;
let second: DynamoDBDocumentClient;
const now = { at: Date.parse("2026-11-27T12:00:00Z") };
const clock = () => new Date(now.at);

beforeAll(async () => {
  aws = await startLocalAws();
  second = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: "us-east-1",
      endpoint: aws.dynamoEndpoint,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
});
afterAll(async () => {
  second?.destroy();
  await aws?.stop();
});

/** One API instance: its own client and store over the shared table. */
function instance(db: DynamoDBDocumentClient, started: Job[]): SubmitDeps {
  return {
    jobs: new JobStore(db, aws.tableName, { now: clock }),
    events: new JsonlFileSink(join(aws.dir, "events.jsonl")),
    now: clock,
    starter: { start: async (job) => void started.push(job) },
    ...UNWATCHED,
  };
}

function submit(deps: SubmitDeps, prompt: string, project: string, reuseMaxAgeS?: number) {
  return submitJob(deps, {
    validation: validate({ model: "os-2", prompt, duration_sec: 4 }),
    source: { type: "api", apiKeyId: project, project },
    options: reuseMaxAgeS === undefined ? {} : { reuseMaxAgeS },
  });
}

/** The job as its flow would leave it: succeeded with one output, offered for reuse. */
async function succeed(deps: SubmitDeps, job: Job): Promise<Job> {
  await deps.jobs.transition(job.id, { from: ["queued"], to: "running" });
  await deps.jobs.transition(job.id, { from: ["running"], to: "downloading" });
  await deps.jobs.update(job.id, {
    outputs: [
      {
        bucket: aws.bucket,
        key: `outputs/${job.id}/video.mp4`,
        bytes: 10,
        sha256: "ab".repeat(32),
        contentType: "video/mp4",
      },
    ],
  });
  const done = await deps.jobs.transition(job.id, {
    from: ["downloading"],
    to: "succeeded",
    set: { finishedAt: clock().toISOString() },
  });
  await deps.jobs.reuse.succeeded(
    project(job),
    job.fingerprint ?? "",
    job.id,
    clock().toISOString(),
  );
  return done;
}

const project = (job: Job) => job.source.project ?? "";

describe("reuse: who makes the task", () => {
  it("50 identical submissions at once through two API instances elect exactly one leader; the other 49 follow it and start with no upstream task of their own", async () => {
    const started: Job[] = [];
    const a = instance(aws.ddb, started);
    const b = instance(second, started);
    const made = await Promise.all(
      Array.from({ length: 50 }, (_, i) => submit(i % 2 === 0 ? a : b, "a heron", "p-race", 3600)),
    );
    const jobs = made.map((submitted) => submitted.job);
    const leaders = jobs.filter((job) => job.reusedFrom === undefined);
    expect(leaders).toHaveLength(1);
    const leader = leaders[0] as Job;
    expect(jobs.filter((job) => job.reusedFrom === leader.id)).toHaveLength(49);
    expect(new Set(jobs.map((job) => job.fingerprint))).toEqual(new Set([leader.fingerprint]));
    expect(started).toHaveLength(50);
    const entry = await a.jobs.reuse.read("p-race", leader.fingerprint ?? "");
    expect(entry?.leader?.jobId).toBe(leader.id);
  });

  it("a request within the max age of the newest succeeded job reuses it; one older than the max age leads a new task", async () => {
    const started: Job[] = [];
    const a = instance(aws.ddb, started);
    const first = (await submit(a, "a lighthouse", "p-age", 600)).job;
    expect(first.reusedFrom).toBeUndefined();
    await succeed(a, first);

    now.at += 300_000;
    const within = (await submit(a, "a lighthouse", "p-age", 600)).job;
    expect(within).toMatchObject({ reusedFrom: first.id, estimate: first.estimate });

    now.at += 400_000;
    const older = (await submit(a, "a lighthouse", "p-age", 600)).job;
    expect(older.reusedFrom).toBeUndefined();
    const entry = await a.jobs.reuse.read("p-age", first.fingerprint ?? "");
    expect(entry?.leader?.jobId).toBe(older.id);
  });

  it("a source whose outputs have expired (past its expires_at) is never reused: the request leads a new task", async () => {
    const started: Job[] = [];
    const a = instance(aws.ddb, started);
    const first = (await submit(a, "a harbour", "p-expired", 3600)).job;
    await succeed(a, first);
    await a.jobs.update(first.id, { expiresAt: new Date(now.at + 60_000).toISOString() });

    now.at += 120_000;
    const after = (await submit(a, "a harbour", "p-expired", 3600)).job;
    expect(after.reusedFrom).toBeUndefined();
    const entry = await a.jobs.reuse.read("p-expired", first.fingerprint ?? "");
    expect(entry?.leader?.jobId).toBe(after.id);
  });

  it("without reuse a request neither follows nor leads; with reuse another project's identical job is never the source", async () => {
    const started: Job[] = [];
    const a = instance(aws.ddb, started);
    const mine = (await submit(a, "a kite", "p-one", 600)).job;
    const plain = (await submit(a, "a kite", "p-one")).job;
    const theirs = (await submit(a, "a kite", "p-two", 600)).job;
    expect(plain.reusedFrom).toBeUndefined();
    expect(plain.fingerprint).toBe(mine.fingerprint);
    expect(theirs.reusedFrom).toBeUndefined();
    expect(theirs.fingerprint).toBe(mine.fingerprint);
    expect((await a.jobs.reuse.read("p-two", mine.fingerprint ?? ""))?.leader?.jobId).toBe(
      theirs.id,
    );
  });
});
