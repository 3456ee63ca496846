/**
 * Admission against dynalite: the slots, the fair queue, the dispatcher and the sweep, with a
 * starter that records which jobs it was asked to start (executions themselves are the flow's
 * business and are tested there).
 */
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { AdmissionControl } from "../../../src/usecases/admission/admission-control.ts";
import { dispatch } from "../../../src/usecases/admission/dispatch.ts";
import type { AdmissionSettings, Priority } from "../../../src/domain/admission/settings.ts";
import { AdmissionStore } from "../../../src/adapters/dynamodb/admission-table.ts";
import { sweep } from "../../../src/usecases/admission/queue-sweep.ts";
import { JsonlFileSink } from "../../../src/adapters/events/jsonl-events.ts";
import { createJob } from "../../../src/usecases/jobs/create-job.ts";
import { JobStore } from "../../../src/adapters/dynamodb/job-table.ts";
import type { Job, JobSource } from "../../../src/domain/jobs/types.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import { type LocalAws, startLocalAws } from "../../support/local-aws.ts";
import { recordingMetrics } from "../../support/recording-metrics.ts";
import { UNWATCHED } from "../../support/unwatched.ts";
import { admissionGauges } from "../../../src/usecases/metrics/admission-metrics.ts";

let aws: LocalAws;
let tables = 0;

beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(async () => {
  await aws.stop();
});

interface World {
  jobs: JobStore;
  store: AdmissionStore;
  control: AdmissionControl;
  started: string[];
  wakes: number;
  events: JsonlFileSink;
  now: { at: number };
  deps: Parameters<typeof sweep>[0];
}

let world: World;

async function makeWorld(settings: AdmissionSettings): Promise<World> {
  const tableName = `admission-${++tables}`;
  await aws.createTable(tableName);
  const now = { at: Date.parse("2026-11-24T10:00:00Z") };
  const clock = () => new Date(now.at);
  const jobs = new JobStore(aws.ddb, tableName, { now: clock });
  const store = new AdmissionStore(aws.ddb, tableName);
  const started: string[] = [];
  const w: World = {
    jobs,
    store,
    started,
    wakes: 0,
    now,
    events: new JsonlFileSink(join(aws.dir, `events-${tables}.jsonl`)),
    control: undefined as unknown as AdmissionControl,
    deps: undefined as unknown as World["deps"],
  };
  w.control = new AdmissionControl({
    store,
    jobs,
    settings,
    waker: { wake: async () => void w.wakes++ },
    now: clock,
  });
  w.deps = {
    admission: w.control,
    jobs,
    starter: { start: async (job) => void started.push(job.id) },
    events: w.events,
    now: clock,
    ...UNWATCHED,
  };
  return w;
}

async function queued(
  source: JobSource,
  priority?: Priority,
  createdAt = new Date(world.now.at),
): Promise<Job> {
  const validation = validate({ model: "os-2", prompt: "a lighthouse", duration_sec: 4 });
  const { job } = await createJob(world.jobs, {
    validation,
    source,
    now: createdAt,
    options: priority === undefined ? {} : { priority },
  });
  await world.control.enqueue(job);
  return job;
}

/** The test's DynamoDB client, with every command's name (and key) recorded in `sent` first. */
function countingClient(sent: string[], withKey = false): typeof aws.ddb {
  return {
    send: (command: { constructor: { name: string }; input: { Key?: { pk?: string } } }) => {
      const key = withKey ? command.input.Key?.pk : undefined;
      sent.push(
        key === undefined ? command.constructor.name : `${command.constructor.name} ${key}`,
      );
      return aws.ddb.send(command as never);
    },
  } as unknown as typeof aws.ddb;
}

const keyA: JobSource = { type: "api", apiKeyId: "key_a" };
const keyB: JobSource = { type: "api", apiKeyId: "key_b" };

describe("admission slots", () => {
  beforeEach(async () => {
    world = await makeWorld({ concurrency: 2, queueTimeoutS: 3600 });
    await world.store.ensure();
  });

  it("acquire takes at most `limit` slots and the same job's second acquire says held_already", async () => {
    const opts = { limit: 2, now: world.now.at, spacingMs: 0, lane: "key_a" };
    expect(await world.store.acquire("vidtsk_1", opts)).toBe("acquired");
    expect(await world.store.acquire("vidtsk_1", opts)).toBe("held_already");
    expect(await world.store.acquire("vidtsk_2", opts)).toBe("acquired");
    expect(await world.store.acquire("vidtsk_3", opts)).toBe("full");
    expect(Object.keys((await world.store.state()).held).sort()).toEqual(["vidtsk_1", "vidtsk_2"]);
  });

  it("release frees a held slot once: true, then false", async () => {
    const opts = { limit: 2, now: world.now.at, spacingMs: 0, lane: "key_a" };
    await world.store.acquire("vidtsk_1", opts);
    expect(await world.store.release("vidtsk_1")).toBe(true);
    expect(await world.store.release("vidtsk_1")).toBe(false);
    expect((await world.store.state()).held).toEqual({});
  });

  it("a create rate spaces acquisitions: the next one is too_soon until the spacing has passed", async () => {
    const opts = { limit: 5, now: world.now.at, spacingMs: 500, lane: "key_a" };
    expect(await world.store.acquire("vidtsk_1", opts)).toBe("acquired");
    expect(await world.store.acquire("vidtsk_2", opts)).toBe("too_soon");
    expect(await world.store.acquire("vidtsk_2", { ...opts, now: world.now.at + 500 })).toBe(
      "acquired",
    );
  });
});

describe("the dispatcher", () => {
  beforeEach(async () => {
    world = await makeWorld({ concurrency: 2, queueTimeoutS: 3600 });
  });

  it("admits no more jobs than the limit, marks them admitted and takes them out of the queue", async () => {
    const jobs = [await queued(keyA), await queued(keyA), await queued(keyA)];
    const result = await dispatch(world.deps);
    expect(result.admitted).toHaveLength(2);
    expect(world.started).toEqual(result.admitted);
    for (const id of result.admitted) {
      expect((await world.jobs.require(id)).admittedAt).toBeDefined();
      expect(await world.store.entry(id)).toBeUndefined();
    }
    const waiting = jobs.find((job) => !result.admitted.includes(job.id));
    expect(await world.control.position(await world.jobs.require(waiting!.id))).toBe(1);
  });

  it("a run reads the admission item once however many it admits, and finds the queue empty with one query", async () => {
    for (let i = 0; i < 3; i++) await queued(keyA);
    const sent: string[] = [];
    const store = new AdmissionStore(countingClient(sent, true), `admission-${tables}`);
    const control = new AdmissionControl({
      store,
      jobs: world.jobs,
      settings: { concurrency: 5, queueTimeoutS: 3600 },
      waker: { wake: async () => undefined },
      now: () => new Date(world.now.at),
    });
    const result = await dispatch({ ...world.deps, admission: control });
    expect(result.admitted).toHaveLength(3);
    expect(sent.filter((c) => c === "GetCommand admission")).toHaveLength(1);
    // The queue now empty and the cursor set: the next run looks once.
    sent.length = 0;
    expect((await dispatch({ ...world.deps, admission: control })).admitted).toEqual([]);
    expect(sent.filter((c) => c === "QueryCommand")).toHaveLength(1);
  });

  it("a clean create learns from the admission item this process just read, its own slot writes applied, and reads again only after losing a race", async () => {
    const sent: string[] = [];
    const store = new AdmissionStore(countingClient(sent), `admission-${tables}`);
    const control = new AdmissionControl({
      store,
      jobs: world.jobs,
      settings: { queueTimeoutS: 3600 },
      waker: { wake: async () => undefined },
      now: () => new Date(world.now.at),
    });
    // The store trusts a copy read within the last 250 ms of the clock; the clock stands still
    // here, so a loaded machine's slow writes cannot age the copy and turn the writes into a read.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      await store.ensure();
      await store.state();
      const opts = { limit: 5, now: world.now.at, spacingMs: 0, lane: "key_a" };
      await store.acquire("vidtsk_1", opts);
      sent.length = 0;
      await control.cleanCreate();
      expect(sent).toEqual(["UpdateCommand"]);
      expect((await world.store.state()).learned).toMatchObject({ clean: 1, proven: 1 });
      // Another process moves the learned limit: this one's copy loses once, then reads and wins.
      const other = await world.store.state();
      await world.store.learn(other.learnedVersion, { ...other.learned, clean: 10 });
      sent.length = 0;
      await control.cleanCreate();
      expect(sent).toEqual(["UpdateCommand", "GetCommand", "UpdateCommand"]);
      expect((await world.store.state()).learned.clean).toBe(11);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a burst is admitted several at a time, never more than the limit, round-robin across keys", async () => {
    world = await makeWorld({ concurrency: 6, queueTimeoutS: 3600 });
    for (let i = 0; i < 8; i++) await queued(keyA);
    const b = await queued(keyB);
    let active = 0;
    let most = 0;
    let starts = 0;
    // The first start stays open until another begins beside it (or 5 s, when admissions run one
    // at a time): a fixed pause would miss the overlap whenever a loaded machine slows the admits.
    let overlapped = () => {};
    const overlap = new Promise<void>((resolve) => {
      overlapped = resolve;
    });
    const result = await dispatch({
      ...world.deps,
      starter: {
        start: async () => {
          starts++;
          most = Math.max(most, ++active);
          if (active > 1) overlapped();
          if (starts === 1) await Promise.race([overlap, new Promise((r) => setTimeout(r, 5_000))]);
          active--;
        },
      },
    });
    expect(result.admitted).toHaveLength(6);
    expect(result.admitted).toContain(b.id);
    expect(most).toBeGreaterThan(1);
    expect(Object.keys((await world.store.state()).held)).toHaveLength(6);
  });

  it("serves API keys round-robin: key B's one job is admitted beside key A's first, not after all of A's", async () => {
    for (let i = 0; i < 5; i++) await queued(keyA);
    const b = await queued(keyB);
    const result = await dispatch(world.deps);
    expect(result.admitted).toContain(b.id);
  });

  it("within one key, a high priority job goes before older normal ones and low goes last", async () => {
    world = await makeWorld({ concurrency: 1, queueTimeoutS: 3600 });
    const low = await queued(keyA, "low", new Date(world.now.at - 3000));
    const normal = await queued(keyA, "normal", new Date(world.now.at - 2000));
    const high = await queued(keyA, "high", new Date(world.now.at - 1000));
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { admitted } = await dispatch(world.deps);
      order.push(...admitted);
      for (const id of admitted) await world.control.release(id);
    }
    expect(order).toEqual([high.id, normal.id, low.id]);
  });

  it("a freed slot admits the next job and wakes the dispatcher", async () => {
    const [first] = [await queued(keyA), await queued(keyA), await queued(keyA)];
    await dispatch(world.deps);
    const wakes = world.wakes;
    await world.control.release(world.started[0]!);
    expect(world.wakes).toBe(wakes + 1);
    const { admitted } = await dispatch(world.deps);
    expect(admitted).toHaveLength(1);
    expect(admitted[0]).not.toBe(first!.id);
  });

  it("a job cancelled while it waits is never started and its entry goes", async () => {
    const job = await queued(keyA);
    await world.jobs.transition(job.id, { from: ["queued"], to: "cancelled" });
    expect((await dispatch(world.deps)).admitted).toEqual([]);
    expect(await world.store.entry(job.id)).toBeUndefined();
    expect(world.started).toEqual([]);
  });

  it("with a create rate, a second admission waits: retryInMs says when", async () => {
    world = await makeWorld({ concurrency: 5, ratePerS: 2, queueTimeoutS: 3600 });
    await queued(keyA);
    await queued(keyA);
    const result = await dispatch(world.deps);
    expect(result.admitted).toHaveLength(1);
    expect(result.retryInMs).toBe(500);
  });
});

describe("a 429 on create (requeue) and the learned limit", () => {
  it("puts the job back at its place, frees its slot, lowers the limit to the slots others hold, and holds creates back", async () => {
    world = await makeWorld({ queueTimeoutS: 3600 });
    for (let i = 0; i < 3; i++) await queued(keyA);
    // A learned limit starts at 2.
    const { admitted } = await dispatch(world.deps);
    expect(admitted).toHaveLength(2);
    const rejected = await world.jobs.require(admitted[1]!);
    await world.control.requeue(rejected, 2000);
    const state = await world.store.state();
    expect(state.learned).toMatchObject({ limit: 1, probing: false });
    expect(state.held[rejected.id]).toBeUndefined();
    expect(state.nextAdmitAt).toBe(world.now.at + 2000);
    const again = await world.jobs.require(rejected.id);
    expect(again.admittedAt).toBeUndefined();
    expect(await world.store.entry(rejected.id)).toBeDefined();
    // Full at the learned limit of 1; a slot frees, but the Retry-After still holds creates back.
    expect((await dispatch(world.deps)).admitted).toEqual([]);
    await world.control.release(admitted[0]!);
    expect(await dispatch(world.deps)).toEqual({ admitted: [], retryInMs: 2000 });
    world.now.at += 2000;
    expect((await dispatch(world.deps)).admitted).toEqual([rejected.id]);
  });
});

describe("the sweep", () => {
  beforeEach(async () => {
    world = await makeWorld({ concurrency: 3, queueTimeoutS: 60 });
  });

  it("frees the slot of a job that ended without releasing it", async () => {
    const job = await queued(keyA);
    await dispatch(world.deps);
    await world.jobs.transition(job.id, { from: ["queued"], to: "failed" });
    const result = await sweep(world.deps);
    expect(result.released).toEqual([job.id]);
    expect((await world.store.state()).held).toEqual({});
  });

  it("leaves a just-ended job's slot to the step that ended it, and frees it once that end has settled", async () => {
    const job = await queued(keyA);
    await dispatch(world.deps);
    const endedAt = new Date(world.now.at).toISOString();
    await world.jobs.transition(job.id, {
      from: ["queued", "running"],
      to: "failed",
      set: { finishedAt: endedAt },
    });
    expect((await sweep(world.deps)).released).toEqual([]);
    world.now.at += 10_000;
    expect((await sweep(world.deps)).released).toEqual([job.id]);
    expect((await world.store.state()).held).toEqual({});
  });

  it("starts again an admitted job whose execution never began, once the grace has passed", async () => {
    const job = await queued(keyA);
    await dispatch(world.deps);
    world.started.length = 0;
    expect((await sweep(world.deps, 60_000)).restarted).toEqual([]);
    world.now.at += 61_000;
    expect((await sweep(world.deps, 60_000)).restarted).toEqual([job.id]);
    expect(world.started).toEqual([job.id]);
  });

  it("frees a slot taken for a job that was never marked admitted (a crash between the writes)", async () => {
    const job = await queued(keyA);
    await world.store.ensure();
    const slot = { limit: 3, now: world.now.at, spacingMs: 0, lane: "key_a" };
    expect(await world.store.acquire(job.id, slot)).toBe("acquired");
    expect((await sweep(world.deps)).released).toEqual([]);
    world.now.at += 61_000;
    expect((await sweep(world.deps)).released).toEqual([job.id]);
  });

  it("ends a job that waited past REELAY_QUEUE_TIMEOUT_S failed with queue_timeout and one event", async () => {
    world = await makeWorld({ concurrency: 1, queueTimeoutS: 60 });
    await queued(keyA);
    const waiting = await queued(keyA);
    await dispatch(world.deps);
    world.now.at += 61_000;
    const result = await sweep(world.deps);
    expect(result.expired).toEqual([waiting.id]);
    const failed = await world.jobs.require(waiting.id);
    expect(failed.status).toBe("failed");
    expect(failed.error?.code).toBe("queue_timeout");
    const events = (await world.events.readAll()).filter((e) => e.detail.jobId === waiting.id);
    expect(events.map((e) => e["detail-type"])).toEqual(["Generation Failed"]);
    expect(await world.store.entry(waiting.id)).toBeUndefined();
  });
});

describe("admission's metrics", () => {
  it("the gauges: jobs waiting, the oldest one's age, slots held and the limit, read as they stand", async () => {
    world = await makeWorld({ concurrency: 1, queueTimeoutS: 600 });
    const first = await queued(keyA);
    await queued(keyB, "high", new Date(world.now.at - 30_000));
    await queued(keyA, "low", new Date(world.now.at - 10_000));
    expect((await dispatch(world.deps)).admitted).toEqual([first.id]);
    // Key B's job, made 30 s before, waits behind the lanes' order: the oldest, 35 s old now.
    world.now.at += 5_000;
    expect(await admissionGauges(world.control, new Date(world.now.at))).toEqual({
      reelay_queue_depth: 2,
      reelay_queue_oldest_age_seconds: 35,
      reelay_slots_in_use: 1,
      reelay_slots_limit: 1,
    });
  });

  it("a sweep that ends a job for queue_timeout counts one repair `expired` and one failure by its code", async () => {
    world = await makeWorld({ concurrency: 1, queueTimeoutS: 60 });
    const metrics = recordingMetrics();
    await queued(keyA);
    await queued(keyA);
    await dispatch(world.deps);
    world.now.at += 61_000;
    await sweep({ ...world.deps, metrics });
    expect({
      expired: metrics.total("reelay_sweep_repairs_total", { action: "expired" }),
      released: metrics.total("reelay_sweep_repairs_total", { action: "released" }),
      failed: metrics.total("reelay_jobs_failed_total", { model: "os-2", code: "queue_timeout" }),
    }).toEqual({ expired: 1, released: 0, failed: 1 });
  });
});
