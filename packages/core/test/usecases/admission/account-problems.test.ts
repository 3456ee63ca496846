/**
 * Each account's recent problems, kept in its admission item on dynalite: what requeue (a 429),
 * refused and createFailed record, what a clean create does not, how the window forgets, and that
 * no key survives into the kept message.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AdmissionStore } from "../../../src/adapters/dynamodb/admission-table.ts";
import { JobStore } from "../../../src/adapters/dynamodb/job-table.ts";
import { ReelayError } from "../../../src/domain/errors.ts";
import type { Job } from "../../../src/domain/jobs/types.ts";
import {
  PROBLEM_BUCKET_MS,
  PROBLEM_WINDOW_MS,
  redactedMessage,
} from "../../../src/domain/upstreams/problems.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import { AdmissionControl } from "../../../src/usecases/admission/admission-control.ts";
import { createJob } from "../../../src/usecases/jobs/create-job.ts";
import { type LocalAws, startLocalAws } from "../../support/local-aws.ts";

let aws: LocalAws;
let tables = 0;

beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(async () => {
  await aws.stop();
});

interface World {
  control: AdmissionControl;
  jobs: JobStore;
  now: { at: number };
  /** Every UpdateItem's expression sent to the table, in order. */
  updates: string[];
}

let world: World;

/** The test's DynamoDB client with every UpdateItem's expression recorded first. */
function recordingClient(updates: string[]): typeof aws.ddb {
  return {
    send: (command: { constructor: { name: string }; input: { UpdateExpression?: string } }) => {
      if (command.input.UpdateExpression !== undefined)
        updates.push(command.input.UpdateExpression);
      return aws.ddb.send(command as never);
    },
  } as unknown as typeof aws.ddb;
}

async function makeWorld(): Promise<World> {
  const tableName = `problems-${++tables}`;
  await aws.createTable(tableName);
  const now = { at: Date.parse("2026-11-27T10:00:30Z") };
  const clock = () => new Date(now.at);
  const updates: string[] = [];
  const db = recordingClient(updates);
  const jobs = new JobStore(aws.ddb, tableName, { now: clock });
  const queue = new AdmissionStore(db, tableName);
  const settings = { queueTimeoutS: 3600 };
  const account = (name: string) => ({
    name,
    weight: 1,
    store: queue.forAccount(name),
    settings: {},
  });
  const control = new AdmissionControl({
    store: queue,
    jobs,
    settings,
    waker: { wake: async () => undefined },
    now: clock,
    accounts: [account("alpha"), account("beta")],
  });
  for (const { store } of control.accounts) await store.ensure();
  return { control, jobs, now, updates };
}

async function jobOn(account: string): Promise<Job> {
  const validation = validate({ model: "os-2", prompt: "a lighthouse", duration_sec: 4 });
  const { job } = await createJob(world.jobs, { validation, source: { type: "api" } });
  return { ...job, upstreamAccount: account };
}

async function problemsOf(name: string) {
  return (await world.control.problems()).find((a) => a.name === name)?.problems;
}

const problemWrites = () => world.updates.filter((u) => u.includes("lastProblem")).length;

describe("an account's recent problems", () => {
  beforeEach(async () => {
    world = await makeWorld();
  });

  it("a 429 counts under rate_limited and becomes the last error, on that account only, with one write", async () => {
    const job = await jobOn("alpha");
    const before = problemWrites();
    await world.control.requeue(
      job,
      1000,
      true,
      new ReelayError(
        "upstream_rate_limited",
        "The upstream answered 429 to POST /video/generations.",
      ),
    );
    expect(problemWrites() - before).toBe(1);
    expect(await problemsOf("alpha")).toEqual({
      windowS: PROBLEM_WINDOW_MS / 1000,
      rateLimited: 1,
      errors: 0,
      last: {
        kind: "rate_limited",
        code: "upstream_rate_limited",
        message: "The upstream answered 429 to POST /video/generations.",
        at: new Date(world.now.at).toISOString(),
      },
    });
    expect(await problemsOf("beta")).toMatchObject({ rateLimited: 0, errors: 0, last: null });
  });

  it("a refused create and a failed one count as errors; a second problem in the same minute is one ADD", async () => {
    await world.control.refused(
      await jobOn("beta"),
      true,
      new ReelayError("upstream_unavailable", "connect ECONNREFUSED 127.0.0.1:4711"),
    );
    const before = world.updates.length;
    world.now.at += 5_000;
    await world.control.createFailed(
      "beta",
      new ReelayError("upstream_auth", "The upstream refused the API key (401)."),
    );
    const problemUpdates = world.updates.slice(before).filter((u) => u.includes("lastProblem"));
    // The one write as sent: the table's writes add the schema version to every SET (table-ops.ts).
    expect(problemUpdates).toEqual([
      "ADD #slot.n :one SET #reelaySchemaVersion = if_not_exists(#reelaySchemaVersion, :reelaySchemaVersion), lastProblem = :problem",
    ]);
    expect(await problemsOf("beta")).toMatchObject({
      rateLimited: 0,
      errors: 2,
      last: { kind: "error", code: "upstream_auth", at: new Date(world.now.at).toISOString() },
    });
  });

  it("a clean create writes nothing about problems", async () => {
    await world.control.createFailed("alpha", new Error("socket hang up"));
    const before = world.updates.length;
    await world.control.cleanCreate("alpha");
    expect(world.updates.slice(before).some((u) => u.includes("problem"))).toBe(false);
    expect(await problemsOf("alpha")).toMatchObject({ errors: 1 });
  });

  it("counts fall out of the window as it moves, and a slot the ring comes back to starts again", async () => {
    const failed = () => world.control.createFailed("alpha", new Error("reset"));
    await failed();
    world.now.at += 5 * PROBLEM_BUCKET_MS;
    await failed();
    await failed();
    expect(await problemsOf("alpha")).toMatchObject({ errors: 3 });
    // The first minute leaves the window; the later two stay.
    world.now.at += PROBLEM_WINDOW_MS - 5 * PROBLEM_BUCKET_MS;
    expect(await problemsOf("alpha")).toMatchObject({ errors: 2 });
    // The ring's first slot again, for a new minute: it counts one, not one more than before.
    await failed();
    expect(await problemsOf("alpha")).toMatchObject({ errors: 3 });
    world.now.at += PROBLEM_WINDOW_MS;
    expect(await problemsOf("alpha")).toMatchObject({
      errors: 0,
      last: { code: "upstream_unavailable" },
    });
  });

  it("keeps no key: bearer tokens, URL credentials, key=... and query strings are taken out of the message", async () => {
    const secret = "sk-live-0123456789abcdef";
    await world.control.createFailed(
      "alpha",
      new ReelayError(
        "upstream_unavailable",
        `POST https://user:${secret}@api.example.com/v1/video?api_key=${secret} failed: Authorization: Bearer ${secret}; api_key=${secret}`,
      ),
    );
    const last = (await problemsOf("alpha"))?.last;
    expect(last?.message).not.toContain(secret);
    expect(last?.message).toContain("https://api.example.com/v1/video");
    expect(redactedMessage("x".repeat(500)).length).toBeLessThanOrEqual(160);
  });
});
