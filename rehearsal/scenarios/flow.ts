/**
 * How jobs move through the deployed flow when things do not go straight: an upstream task that
 * fails, one tried again on the pool's other account, more jobs than the pool has slots (the
 * Dispatch function starts the ones that waited), a job that waits past its queue timeout, and a
 * task that never finishes. Each ends as on the local stack: same status, same error code, same
 * objects, one terminal event.
 */
import { LAST_LOOK_MS } from "@reelay/core/domain";
import { type Stage, TRIAL_ACCOUNT } from "../stage.ts";
import {
  api,
  endedJob,
  expectThat,
  type JsonBody,
  keysUnder,
  type Scenario,
  waitFor,
} from "./support.ts";

const show = (value: unknown) => JSON.stringify(value);

/** A gamma-3.1 video job made through the contract's route; its id. */
export async function createVideo(
  stage: Stage,
  prompt: string,
  headers: Record<string, string> = {},
  fields: JsonBody = {},
): Promise<string> {
  const created = await api(
    stage,
    "POST",
    "/v1/video/generations",
    { model: "gamma-3.1", prompt, duration_sec: 4, ...fields },
    headers,
  );
  expectThat(created.status === 200, `create answered ${created.status}: ${show(created.body)}`);
  return String(created.body.task_id);
}

/** The job as the API shows it now. */
async function jobNow(stage: Stage, id: string): Promise<JsonBody> {
  const { status, body } = await api(stage, "GET", `/v1/jobs/${id}`);
  expectThat(status === 200, `GET /v1/jobs/${id} answered ${status}: ${show(body)}`);
  return body;
}

/** Waits until the job holds an upstream slot (admitted, its task made on an account). */
function runningJob(stage: Stage, id: string): Promise<JsonBody> {
  return waitFor(`job ${id} running on an account`, async () => {
    const job = await jobNow(stage, id);
    return job.status === "running" && job.upstream?.account !== undefined ? job : undefined;
  });
}

/**
 * The job events put on the bus for a job (detail-type of each), read from the PutEvents calls the
 * gate allowed: what EventBridge would have received, whoever put them.
 */
function jobEvents(stage: Stage, id: string): string[] {
  return stage.gate
    .calls()
    .filter(({ call, verdict }) => call.operation === "PutEvents" && verdict.allowed)
    .flatMap(({ call }) => (call.input.Entries as JsonBody[] | undefined) ?? [])
    .filter((entry) => String(entry.DetailType).startsWith("Generation "))
    .filter((entry) => (JSON.parse(String(entry.Detail ?? "{}")) as JsonBody).jobId === id)
    .map((entry) => String(entry.DetailType));
}

/** Finish puts the terminal event after it writes the record: it may reach the bus just after. */
async function oneEvent(stage: Stage, id: string, detailType: string): Promise<void> {
  await waitFor(`the ${detailType} event of ${id}`, async () => {
    const events = jobEvents(stage, id);
    if (events.length === 0) return undefined;
    expectThat(
      events.length === 1 && events[0] === detailType,
      `job ${id} put ${show(events)} on the bus, not one ${detailType}`,
    );
    return true;
  });
}

/** The IAM role name of the function whose logical id starts with `prefix`. */
function roleOf(stage: Stage, prefix: string): string {
  const fn = stage.functions.find((f) => f.spec.logicalId.startsWith(prefix));
  expectThat(fn !== undefined, `no function ${prefix}* in the template`);
  return fn.role.name;
}

/** The slots of the pool's simulated accounts as admission counts them (each one's concurrency). */
async function upstreams(stage: Stage): Promise<{ slots: number; inFlight: number }> {
  const { status, body } = await api(stage, "GET", "/v1/upstreams");
  expectThat(status === 200, `GET /v1/upstreams answered ${status}: ${show(body)}`);
  // The deployed simulator's account serves another model than these scenarios' jobs.
  const accounts = (body.data as JsonBody[]).filter((a) => a.name !== TRIAL_ACCOUNT);
  const slots = accounts.reduce((sum, a) => sum + Number(a.limit), 0);
  return { slots, inFlight: Number(body.in_flight) };
}

/**
 * Fills every slot of the pool with tasks that never finish, so the next job waits in the queue;
 * cancelAll gives the slots back.
 */
async function holdEverySlot(stage: Stage): Promise<string[]> {
  const { slots } = await upstreams(stage);
  const ids: string[] = [];
  try {
    // One at a time, each admitted before the next is made: the pool fills without a race.
    for (let i = 0; i < slots; i++) {
      const id = await createVideo(stage, `a slot held, take ${i + 1} [[sim:never_finish]]`);
      ids.push(id);
      await runningJob(stage, id);
    }
    const { inFlight } = await upstreams(stage);
    expectThat(inFlight === slots, `${inFlight} of ${slots} slots held after ${slots} blockers`);
    return ids;
  } catch (error) {
    // Left running, they would hold the pool until their deadline, minutes on.
    await cancelAll(stage, ids);
    await upstreamIdle(stage);
    throw error;
  }
}

/**
 * Waits until no task is in flight upstream. A cancel does not end the upstream task (the contract
 * has no cancel), and a never-finishing one keeps its account's place until the upstream gives
 * up on it (a minute): a create meanwhile is answered 429, and the job waits for the Dispatch
 * function's next wake. The scenarios after one that cancelled such tasks start with the whole pool.
 */
async function upstreamIdle(stage: Stage): Promise<void> {
  await waitFor("every upstream account to have no task in flight", async () =>
    Object.values(stage.sim.simulators).every((sim) => sim.counters().inFlight === 0)
      ? true
      : undefined,
  );
}

/** Cancels each job still in progress (the queued first, so none is admitted on the way). */
export async function cancelAll(stage: Stage, ids: readonly string[]): Promise<void> {
  for (const id of [...ids].reverse()) {
    const { status } = await api(stage, "POST", `/v1/jobs/${id}/cancel`, {});
    expectThat(status === 200 || status === 409, `cancel of ${id} answered ${status}`);
  }
}

const taskFails: Scenario = {
  name: "an upstream task that fails: failed, upstream_task_failed with the upstream's reason (content_policy, not retried elsewhere), its job.json and no output, one Generation Failed event",
  async run(stage) {
    const reason = "blocked by the content policy";
    const id = await createVideo(stage, `a glass city [[sim:task_fail reason="${reason}"]]`);
    const job = await endedJob(stage, id);
    expectThat(job.status === "failed", `job ${id} ended ${job.status}`);
    const error = job.error as JsonBody | null;
    // The local stack's answer (test/e2e/failures.test.ts): the upstream's words name a
    // content-policy refusal, so sending it again unchanged, here or on the other account, cannot help.
    expectThat(
      error?.code === "upstream_task_failed" &&
        String(error.message).includes(reason) &&
        error.class === "content_policy" &&
        error.retryable === false,
      `job ${id} failed with ${show(error)}`,
    );
    expectThat(
      (job.attempts as JsonBody[]).length === 1,
      `a content-policy failure was tried again: ${show(job.attempts)}`,
    );
    await oneEvent(stage, id, "Generation Failed");
    // Every failed job fails its execution (RecordFailure, then the Fail state): the alarm counts them.
    const execution = await waitFor(`execution ${id} to end`, async () => {
      const found = stage.states.executions().find((e) => e.name === id);
      return found?.status === "RUNNING" ? undefined : found;
    });
    expectThat(execution?.status === "FAILED", `execution ${id} is ${execution?.status}`);
    // RecordFailure writes the manifest after the record and the event: nothing else, no output.
    await stage.idle();
    const keys = await keysUnder(stage, `outputs/${id}/`);
    expectThat(
      show(keys) === show([`outputs/${id}/job.json`]),
      `a failed job's objects: ${keys.join(", ")}`,
    );
  },
};

/** Whichever account the job lands on fails its task; the other is told to behave once it did. */
function failFirstAccount(stage: Stage, reason: string): void {
  for (const sim of Object.values(stage.sim.simulators))
    sim.setFaults([{ fault: "task_fail", reason, model: "gamma-3.1", times: 1 }]);
}

function clearFaults(stage: Stage, only?: string): void {
  for (const [name, sim] of Object.entries(stage.sim.simulators))
    if (only === undefined || name === only) sim.setFaults([]);
}

const fallback: Scenario = {
  name: "a task that fails on one account with a retryable class is tried once on the other (REELAY_FALLBACK_ATTEMPTS=1): succeeded there, both attempts on the job, one Generation Succeeded event",
  async run(stage) {
    failFirstAccount(stage, "the generator crashed");
    try {
      const id = await createVideo(stage, "a lighthouse on a cliff, take two");
      const first = String((await runningJob(stage, id)).upstream.account);
      const other = Object.keys(stage.sim.simulators).find((name) => name !== first) ?? "";
      // The account is written before the create is sent; the retry's create comes only after
      // the failed task is seen, seconds later: the other account is healthy by then.
      clearFaults(stage, other);
      const job = await endedJob(stage, id);
      expectThat(job.status === "succeeded", `job ${id} ended ${job.status}: ${show(job.error)}`);
      const attempts = (job.attempts as JsonBody[]).map((a) => [a.account, a.outcome, a.charged]);
      expectThat(
        show(attempts) ===
          show([
            [first, "failed", "unknown"],
            [other, "succeeded", true],
          ]) && job.upstream?.account === other,
        `job ${id}: upstream ${show(job.upstream)}, attempts ${show(job.attempts)}`,
      );
      const failedTask = stage.sim.simulators[first]?.task(String(job.attempts[0].task_id));
      expectThat(failedTask?.status === "failed", `the task on ${first} is ${failedTask?.status}`);
      const names = stage.states.executions().filter((e) => e.name.startsWith(id));
      expectThat(names.length === 2, `${names.length} executions for ${id}, not one per attempt`);
      await oneEvent(stage, id, "Generation Succeeded");
    } finally {
      clearFaults(stage);
    }
  },
};

/** The roles that invoked the Dispatch function (the wakes), in the order the calls came in. */
function dispatchWakes(stage: Stage): { role: string; index: number }[] {
  return stage.gate
    .calls()
    .map(({ role, call }, index) => ({ role, call, index }))
    .filter(
      ({ call }) =>
        call.service === "lambda" &&
        call.operation === "Invoke" &&
        String(call.input.FunctionName).includes("dispatch"),
    )
    .map(({ role, index }) => ({ role, index }));
}

/** Which role called StartExecution for the execution named `name`, and where in the calls. */
function starterOf(stage: Stage, name: string): { role: string; index: number } | undefined {
  const calls = stage.gate.calls();
  const index = calls.findIndex(
    ({ call }) => call.operation === "StartExecution" && call.input.name === name,
  );
  const found = calls[index];
  return found === undefined ? undefined : { role: found.role, index };
}

/**
 * A moment when at least `extra` of the jobs wait in the queue, at places 1 to n (a job admitted
 * a moment ago is still `queued` until Submit runs, with no place: it is not one of them). Their ids.
 */
function waitingOnes(stage: Stage, ids: readonly string[], extra: number): Promise<string[]> {
  return waitFor(`${extra} jobs waiting at their places`, async () => {
    // One after another: twelve at once would start as many API instances on two cores.
    const placed: JsonBody[] = [];
    for (const id of ids) {
      const job = await jobNow(stage, id);
      if (job.status === "queued" && typeof job.queue_position === "number") placed.push(job);
    }
    const places = placed.map((job) => Number(job.queue_position)).sort((x, y) => x - y);
    return places.length >= extra && places.every((place, i) => place === i + 1)
      ? placed.map((job) => String(job.id))
      : undefined;
  });
}

/**
 * Once every job ended, the pool holds no slot, as on the local stack. A slot still held is
 * named, then freed by the Dispatch function's scheduled sweep (as on AWS within a minute), so
 * the scenarios after this one start with the whole pool.
 */
async function noSlotHeld(stage: Stage): Promise<void> {
  await stage.idle();
  const { body } = await api(stage, "GET", "/v1/admission");
  const held = (body.held as string[] | undefined) ?? [];
  if (held.length === 0) return;
  stage.scheduler.tick();
  await stage.idle();
  expectThat(
    false,
    `every job ended, yet ${held.length} slot(s) stayed held, freed only by the scheduled sweep: ${show(held)}`,
  );
}

/** Each waiting job's execution was started by Dispatch, after a step function woke it. */
function startedByDispatch(stage: Stage, waiting: readonly string[]): void {
  const dispatch = roleOf(stage, "DispatchFunction");
  const apiRole = roleOf(stage, "ApiFunction");
  for (const id of waiting) {
    const started = starterOf(stage, id);
    expectThat(started?.role === dispatch, `${id}'s execution was started by ${started?.role}`);
    // The wake that let it in: a step function that saw a task end and freed its slot.
    const woken = dispatchWakes(stage).filter(
      (w) => w.role !== apiRole && w.role !== dispatch && w.index < started.index,
    );
    expectThat(woken.length > 0, `no step function woke Dispatch before ${id} started`);
  }
}

const queued: Scenario = {
  name: "more jobs than the pool's slots: the rest wait queued with a queue_position, all succeed, those that waited started by the Dispatch function woken by a finishing job's Lambda Invoke, no slot held once they ended",
  async run(stage) {
    const { slots } = await upstreams(stage);
    const extra = 4;
    const ids: string[] = [];
    // Tasks of 20 s upstream: the first ones hold every slot while the rest are made and looked at.
    for (let i = 0; i < slots + extra; i++)
      ids.push(await createVideo(stage, `a harbour, take ${i + 1} [[sim:generation_ms=20000]]`));
    const waiting = await waitingOnes(stage, ids, extra);
    const ended: JsonBody[] = [];
    for (const id of ids) ended.push(await endedJob(stage, id));
    const notOk = ended.filter((job) => job.status !== "succeeded");
    expectThat(notOk.length === 0, `not succeeded: ${show(notOk.map((j) => [j.id, j.error]))}`);
    startedByDispatch(stage, waiting);
    await noSlotHeld(stage);
  },
};

const queueTimeout: Scenario = {
  name: "a job behind a full pool past its X-Reelay-Queue-Timeout: failed queue_timeout, charged false, swept by the Dispatch function's scheduled run; the slots' holders untouched",
  async run(stage) {
    const blockers = await holdEverySlot(stage);
    try {
      const id = await createVideo(stage, "a boat at dawn", { "x-reelay-queue-timeout": "2" });
      const waiting = await jobNow(stage, id);
      expectThat(
        waiting.status === "queued" && waiting.queue_position === 1,
        `job ${id} is ${waiting.status} at ${waiting.queue_position}`,
      );
      const limit = Date.parse(waiting.timings.createdAt) + 2_000;
      // On AWS the queue sweep is the Dispatch function's run each minute: the next one after the limit.
      await waitFor("the job's queue timeout to pass", async () =>
        Date.now() > limit + 500 ? true : undefined,
      );
      const before = await jobNow(stage, id);
      expectThat(before.status === "queued", `job ${id} was ${before.status} before the sweep`);
      stage.scheduler.tick();
      const job = await endedJob(stage, id);
      const error = job.error as JsonBody | null;
      expectThat(
        job.status === "failed" &&
          job.charged === false &&
          error?.code === "queue_timeout" &&
          error.class === "queue_timeout" &&
          String(error.message).includes("queue_timeout_s, 2 s"),
        `job ${id} ended ${job.status}, charged ${job.charged}: ${show(error)}`,
      );
      await oneEvent(stage, id, "Generation Failed");
      const holders: JsonBody[] = [];
      for (const b of blockers) holders.push(await jobNow(stage, b));
      expectThat(
        holders.every((h) => h.status === "running"),
        `a slot's holder moved: ${show(holders.map((h) => h.status))}`,
      );
    } finally {
      await cancelAll(stage, blockers);
      await upstreamIdle(stage);
    }
  },
};

/** The steps' own time past a deadline on this machine (a Wait, RecordFailure, its writes), generously. */
const STEP_TIME_MS = 10_000;

const jobTimeout: Scenario = {
  name: "a task that never finishes: failed with error.code timeout at its deadline plus the last look, one task upstream, one Generation Failed event",
  async run(stage) {
    const id = await createVideo(stage, "a clock with no hands, again [[sim:never_finish]]");
    const running = await runningJob(stage, id);
    // The stage deploys with REELAY_JOB_TIMEOUT_S=60 (stage.ts), which the stack passes to the
    // functions: the deadline is a minute after the create upstream.
    const deadline = Date.parse(running.timings.deadlineAt);
    const job = await endedJob(stage, id, deadline - Date.now() + LAST_LOOK_MS + STEP_TIME_MS);
    const error = job.error as JsonBody | null;
    expectThat(
      job.status === "failed" && error?.code === "timeout" && error.class === "timeout",
      `job ${id} ended ${job.status}: ${show(error)}`,
    );
    const late = Date.parse(job.timings.finishedAt) - deadline;
    expectThat(
      late >= 0 && late <= LAST_LOOK_MS + STEP_TIME_MS,
      `job ${id} ended ${late} ms after its deadline`,
    );
    const tasks = Object.values(stage.sim.simulators).reduce(
      (sum, sim) => sum + (sim.counters().tasksByKey[id] ?? 0),
      0,
    );
    expectThat(tasks === 1, `${tasks} tasks upstream for ${id}`);
    await oneEvent(stage, id, "Generation Failed");
  },
};

export const FLOW_SCENARIOS: Scenario[] = [taskFails, fallback, queued, queueTimeout, jobTimeout];
