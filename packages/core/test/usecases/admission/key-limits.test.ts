/**
 * Limits per key in the submit path and at admission, on dynalite: max_queued counts a key's
 * waiting jobs before anything is made and counts them back as they leave the queue; max_in_flight
 * lets at most N of a key's jobs hold upstream slots while the fair queue admits other keys' jobs.
 * A key's user_limits hold the same per end user: one user over a limit is refused (or waits)
 * while the key's other users and its jobs for no user are served.
 * The starter records which jobs it was asked to start; nothing runs upstream.
 */
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { AdmissionStore } from "../../../src/adapters/dynamodb/admission-table.ts";
import { BatchStore } from "../../../src/adapters/dynamodb/batch-table.ts";
import {
  KeyLimitsStore,
  STALE_IN_FLIGHT_MS,
} from "../../../src/adapters/dynamodb/key-limits-table.ts";
import { JobStore } from "../../../src/adapters/dynamodb/job-table.ts";
import { BudgetLedger } from "../../../src/adapters/dynamodb/budget-ledger.ts";
import { estimateOf } from "../../../src/domain/money/estimate.ts";
import { JsonlFileSink } from "../../../src/adapters/events/jsonl-events.ts";
import type { KeyLimits } from "../../../src/domain/keys/key-limits.ts";
import type { UserLimits } from "../../../src/domain/keys/end-users.ts";
import type { JobSource } from "../../../src/domain/jobs/types.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import { AdmissionControl } from "../../../src/usecases/admission/admission-control.ts";
import { dispatch } from "../../../src/usecases/admission/dispatch.ts";
import { createBatch } from "../../../src/usecases/batches/create-batch.ts";
import { cancelJob } from "../../../src/usecases/jobs/cancel-job.ts";
import { type SubmitDeps, submitJob } from "../../../src/usecases/jobs/submit-job.ts";
import { sharedLocalAws } from "../../support/shared-local-aws.ts";
import { UNWATCHED } from "../../support/unwatched.ts";

const localAws = sharedLocalAws();
let tables = 0;

const keyA: JobSource = { type: "api", apiKeyId: "key_a" };
const keyB: JobSource = { type: "api", apiKeyId: "key_b" };
const VALID = validate({ model: "os-2", prompt: "a lighthouse", duration_sec: 4 });

interface World {
  jobs: JobStore;
  batches: BatchStore;
  control: AdmissionControl;
  limits: KeyLimitsStore;
  submit: SubmitDeps;
  started: string[];
  now: { at: number };
  dispatchDeps: Parameters<typeof dispatch>[0];
}

let world: World;

async function makeWorld(
  own: Record<string, KeyLimits>,
  users: Record<string, UserLimits> = {},
  concurrency = 10,
): Promise<World> {
  const aws = localAws();
  const tableName = `key-limits-${++tables}`;
  await aws.createTable(tableName);
  const now = { at: Date.parse("2026-11-27T10:00:00Z") };
  const clock = () => new Date(now.at);
  const jobs = new JobStore(aws.ddb, tableName, { now: clock });
  const limits = new KeyLimitsStore(aws.ddb, tableName, {
    ownOf: async (id) => own[id],
    userLimitsOf: async (id) => users[id],
  });
  const control = new AdmissionControl({
    store: new AdmissionStore(aws.ddb, tableName),
    jobs,
    settings: { concurrency, queueTimeoutS: 3600 },
    waker: { wake: async () => undefined },
    now: clock,
    keyLimits: limits,
  });
  const events = new JsonlFileSink(join(aws.dir, `key-limits-${tables}.jsonl`));
  const started: string[] = [];
  return {
    jobs,
    batches: new BatchStore(aws.ddb, tableName),
    control,
    limits,
    started,
    now,
    submit: {
      jobs,
      events,
      now: clock,
      starter: { start: (job) => control.enqueue(job) },
      keyLimits: limits,
      ...UNWATCHED,
    },
    dispatchDeps: {
      admission: control,
      jobs,
      starter: { start: async (job) => void started.push(job.id) },
      events,
      now: clock,
      ...UNWATCHED,
    },
  };
}

function submit(source: JobSource, jobId?: string, user?: string) {
  return submitJob(world.submit, {
    validation: VALID,
    source,
    ...(jobId === undefined ? {} : { jobId }),
    ...(user === undefined ? {} : { options: { user } }),
  });
}

/** `count` jobs of key_a for `user` (none: the key's own), their ids in order. */
async function submitFor(user: string | undefined, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await submit(keyA, undefined, user)).job.id);
  return ids;
}

function batchOf(source: JobSource, id: string, lines: number) {
  return createBatch(
    {
      batches: world.batches,
      admission: world.control,
      submit: world.submit,
      now: () => new Date(world.now.at),
    },
    {
      id,
      source,
      lines: Array.from({ length: lines }, (_, i) => ({
        line: i + 1,
        validation: VALID,
        source,
      })),
    },
  );
}

describe("max_queued", () => {
  beforeEach(async () => {
    world = await makeWorld({ key_a: { max_queued: 3 } });
  });

  it("a key's create past max_queued is 429 queue_full and records nothing; another key's goes on", async () => {
    for (let i = 0; i < 3; i++) await submit(keyA);
    const refused = await submit(keyA).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "queue_full", status: 429 });
    expect((await world.jobs.list({ limit: 100 })).jobs).toHaveLength(3);
    expect(await world.limits.queued("key_a")).toBe(3);
    await submit(keyB);
    expect((await world.jobs.list({ limit: 100 })).jobs).toHaveLength(4);
  });

  it("a job leaving the queue (admitted, or cancelled while waiting) counts back, so the key may queue again", async () => {
    const first = await submit(keyA);
    const second = await submit(keyA);
    await submit(keyA);
    await expect(submit(keyA)).rejects.toMatchObject({ code: "queue_full" });
    await cancelJob({ ...world.submit, admission: world.control }, first.job.id);
    expect(await world.limits.queued("key_a")).toBe(2);
    await submit(keyA);
    await dispatch(world.dispatchDeps);
    expect(world.started).toContain(second.job.id);
    expect(await world.limits.queued("key_a")).toBe(0);
    for (let i = 0; i < 3; i++) await submit(keyA);
    await expect(submit(keyA)).rejects.toMatchObject({ code: "queue_full" });
  });

  it("a repeat of a job already made is answered, not refused, and counts nothing twice", async () => {
    const made = await submit(keyA, "vidtsk_01KA0000000000000000000001");
    await submit(keyA);
    await submit(keyA);
    const again = await submit(keyA, "vidtsk_01KA0000000000000000000001");
    expect(again).toMatchObject({ created: false, job: { id: made.job.id } });
    expect(await world.limits.queued("key_a")).toBe(3);
  });

  it("a batch that would pass max_queued is refused whole: no job made, nothing counted", async () => {
    const refused = await batchOf(keyA, "bat_01KA0000000000000000000001", 5).catch((e) => e);
    expect(refused).toMatchObject({ code: "queue_full", status: 429 });
    expect((await world.jobs.list({ limit: 100 })).jobs).toHaveLength(0);
    expect(await world.limits.queued("key_a")).toBe(0);
    await batchOf(keyA, "bat_01KA0000000000000000000002", 3);
    expect((await world.jobs.list({ limit: 100 })).jobs).toHaveLength(3);
    expect(await world.limits.queued("key_a")).toBe(3);
  });
});

describe("max_in_flight", () => {
  beforeEach(async () => {
    world = await makeWorld({ key_a: { max_in_flight: 2 } });
  });

  it("at most N of a key's jobs hold slots; the fair queue admits another key's jobs meanwhile", async () => {
    const a: string[] = [];
    for (let i = 0; i < 5; i++) a.push((await submit(keyA)).job.id);
    const b: string[] = [];
    for (let i = 0; i < 3; i++) b.push((await submit(keyB)).job.id);
    await dispatch(world.dispatchDeps);
    expect(world.started.filter((id) => a.includes(id))).toHaveLength(2);
    expect(world.started.filter((id) => b.includes(id)).sort()).toEqual([...b].sort());
    expect(await world.limits.inFlight("key_a")).toHaveLength(2);
    // Nothing freed: another run admits none of key_a's.
    await dispatch(world.dispatchDeps);
    expect(world.started).toHaveLength(5);
  });

  it("a slot freed lets the key's next job in once its place may be given back, and never more than N at once", async () => {
    const a: string[] = [];
    for (let i = 0; i < 4; i++) a.push((await submit(keyA)).job.id);
    await dispatch(world.dispatchDeps);
    const [first] = world.started;
    expect(world.started).toHaveLength(2);
    await world.control.release(first as string);
    // Its place was taken a moment ago: another dispatcher may be between the place and its
    // slot, so it is given back only once STALE_IN_FLIGHT_MS old, and the run says when to look.
    world.now.at += 500;
    const soon = await dispatch(world.dispatchDeps);
    expect(soon).toMatchObject({ admitted: [], retryInMs: STALE_IN_FLIGHT_MS + 1 - 500 });
    world.now.at += STALE_IN_FLIGHT_MS;
    await dispatch(world.dispatchDeps);
    expect(world.started).toHaveLength(3);
    const held = (await world.control.snapshot()).held;
    expect(held.filter((id) => a.includes(id))).toHaveLength(2);
    expect(await world.limits.inFlight("key_a")).not.toContain(first);
  });
});

describe("user_limits", () => {
  it("max_in_flight: one job per end user holds a slot; the other user and the key's own jobs go on", async () => {
    world = await makeWorld({}, { key_a: { max_in_flight: 1 } });
    const alice = await submitFor("alice", 3);
    const bob = await submitFor("bob", 3);
    const own = await submitFor(undefined, 2);
    await dispatch(world.dispatchDeps);
    expect(world.started.filter((id) => alice.includes(id))).toHaveLength(1);
    expect(world.started.filter((id) => bob.includes(id))).toHaveLength(1);
    expect(world.started.filter((id) => own.includes(id)).sort()).toEqual([...own].sort());
    expect(await world.limits.inFlight("key_a/user/alice")).toHaveLength(1);
    expect(await world.limits.inFlight("key_a/user/bob")).toHaveLength(1);
  });

  it("max_queued: an end user past it is 429 queue_full naming the user's limit; the other user and the key go on", async () => {
    world = await makeWorld({}, { key_a: { max_queued: 2 } });
    await submitFor("alice", 2);
    const refused = await submit(keyA, undefined, "alice").catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "queue_full", status: 429 });
    expect((refused as Error).message).toMatch(/end user "?alice"?/);
    await submitFor("bob", 2);
    await submitFor(undefined, 3);
    expect((await world.jobs.list({ limit: 100 })).jobs).toHaveLength(7);
    expect(await world.limits.queued("key_a/user/alice")).toBe(2);
    await dispatch(world.dispatchDeps);
    expect(await world.limits.queued("key_a/user/alice")).toBe(0);
    await submitFor("alice", 1);
  });

  it("rate: an end user past its bucket is 429 rate_limited; the other user is served", async () => {
    world = await makeWorld({}, { key_a: { rate: 1, burst: 1 } });
    await submitFor("alice", 1);
    await expect(submit(keyA, undefined, "alice")).rejects.toMatchObject({
      code: "rate_limited",
      status: 429,
    });
    await submitFor("bob", 1);
    world.now.at += 1000;
    await submitFor("alice", 1);
  });

  it("the fair queue takes a key's end users in turn, whoever queued first", async () => {
    world = await makeWorld({}, {}, 4);
    const alice = await submitFor("alice", 4);
    const bob = await submitFor("bob", 4);
    await dispatch(world.dispatchDeps);
    expect(world.started.filter((id) => alice.includes(id))).toHaveLength(2);
    expect(world.started.filter((id) => bob.includes(id))).toHaveLength(2);
  });

  it("budget: an end user past its period's budget is 402 budget_exceeded naming the user; the other user reserves", async () => {
    const aws = localAws();
    const tableName = `key-limits-${++tables}`;
    await aws.createTable(tableName);
    const budget = { amount: 8, unit: "units" as const, period: "day" as const };
    const ledger = new BudgetLedger(aws.ddb, tableName, { userBudgetOf: async () => budget });
    const now = new Date("2026-11-27T10:00:00Z");
    const request = VALID.normalized as NonNullable<typeof VALID.normalized>;
    const estimate = estimateOf({ model: "os-2", request }, undefined);
    const reserveFor = async (user: string) => {
      const claim = await ledger.userClaimOf("key_a", user);
      return ledger.reserve(claim === undefined ? [] : [claim], estimate, now);
    };
    await reserveFor("alice");
    await reserveFor("alice");
    const refused = await reserveFor("alice").catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "budget_exceeded", status: 402 });
    expect((refused as Error).message).toMatch(/end user "?alice"?/);
    await reserveFor("bob");
    expect(await ledger.userClaimOf("key_a", undefined)).toBeUndefined();
  });
});
