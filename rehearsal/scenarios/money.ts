/**
 * What a user pays for, through the rehearsed API: a key's budget stopping a batch part way, a
 * failed job retried, and the same request served twice for the price of one upstream task (and
 * not served from a source whose outputs expired). Each ends as on the local stack: same status,
 * same error code, same objects, and the upstream tasks counted at the simulated accounts.
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Stage } from "../stage.ts";
import {
  api,
  endedJob,
  expectThat,
  type JsonBody,
  keysUnder,
  type Scenario,
  waitFor,
} from "./support.ts";

const VIDEO = { model: "gamma-3.1", duration_sec: 4 };

/** Upstream tasks made so far over the pool's accounts. */
function upstreamTasks(stage: Stage): number {
  return Object.values(stage.sim.simulators).reduce((sum, s) => sum + s.counters().tasksCreated, 0);
}

function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/** A stored key with a budget in units (video seconds): no price table is needed to count them. */
async function keyWithUnits(stage: Stage, name: string, seconds: number): Promise<JsonBody> {
  const made = await api(stage, "POST", "/v1/keys", {
    name,
    budget: { amount: seconds, unit: "units", period: "day" },
  });
  expectThat(
    made.status === 201,
    `POST /v1/keys answered ${made.status}: ${JSON.stringify(made.body)}`,
  );
  return made.body;
}

function completedBatch(stage: Stage, id: string, key: string): Promise<JsonBody> {
  return waitFor(`batch ${id} to complete`, async () => {
    const { status, body } = await api(stage, "GET", `/v1/batches/${id}`, undefined, bearer(key));
    return status === 200 && body.status === "completed" && body.results !== null
      ? body
      : undefined;
  });
}

/** The batch's jobs as GET /v1/jobs/{id} shows them, from its results' job ids. */
async function batchJobs(stage: Stage, id: string, key: string): Promise<JsonBody[]> {
  const results = await api<string>(
    stage,
    "GET",
    `/v1/batches/${id}/results`,
    undefined,
    bearer(key),
  );
  const text = typeof results.body === "string" ? results.body : JSON.stringify(results.body);
  const ids = text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => String((JSON.parse(line) as JsonBody).job_id));
  return Promise.all(ids.map((jobId) => endedJob(stage, jobId)));
}

function expectBudgetRefusal(job: JsonBody): void {
  expectThat(
    job.error?.code === "budget_exceeded" &&
      job.error?.class === "budget_exceeded" &&
      job.error?.retryable === true,
    `job ${job.id}'s error is ${JSON.stringify(job.error)}`,
  );
  expectThat(job.charged === false && job.upstreamTaskId === null, `job ${job.id} was charged`);
}

/** What the key's budget has used this period, as GET /v1/keys shows it. */
async function budgetUsed(stage: Stage, keyId: string): Promise<number | undefined> {
  const { body } = await api(stage, "GET", "/v1/keys");
  const record = (body.data as JsonBody[]).find((k) => k.id === keyId);
  return record?.budget?.used as number | undefined;
}

const budgetBatch: Scenario = {
  name: "a key's budget of 12 video seconds stops its batch of five 4 s videos part way: 3 succeed, 2 fail budget_exceeded never sent upstream; its next create is 402",
  async run(stage) {
    const key = await keyWithUnits(stage, "rehearsal-budget", 12);
    const tasksBefore = upstreamTasks(stage);
    const requests = Array.from({ length: 5 }, (_, i) => ({
      ...VIDEO,
      prompt: `a budget crane ${i}`,
    }));
    const posted = await api(stage, "POST", "/v1/batches", { requests }, bearer(key.key));
    expectThat(
      posted.status === 200,
      `POST /v1/batches answered ${posted.status}: ${JSON.stringify(posted.body)}`,
    );
    const batch = await completedBatch(stage, String(posted.body.id), key.key).catch(
      async (error: unknown) => {
        // Jobs left queued would meet every later Dispatch run: cancel them with their batch.
        await api(stage, "POST", `/v1/batches/${posted.body.id}/cancel`, {});
        throw error;
      },
    );
    expectThat(
      batch.counts?.succeeded === 3 && batch.counts?.failed === 2,
      `batch ${batch.id} counts ${JSON.stringify(batch.counts)}`,
    );
    const jobs = await batchJobs(stage, String(batch.id), key.key);
    for (const job of jobs.filter((j) => j.status === "failed")) expectBudgetRefusal(job);
    expectThat(
      upstreamTasks(stage) - tasksBefore === 3,
      `${upstreamTasks(stage) - tasksBefore} upstream tasks, not 3`,
    );
    // Settled at the end: what the three that succeeded used, no more.
    await waitFor("the key's budget to settle at 12 used", async () =>
      (await budgetUsed(stage, String(key.id))) === 12 ? true : undefined,
    );
    const refused = await api(
      stage,
      "POST",
      "/v1/video/generations",
      { ...VIDEO, prompt: "one more crane" },
      bearer(key.key),
    );
    expectThat(
      refused.status === 402 && refused.body.error?.code === "budget_exceeded",
      `a create past the budget answered ${refused.status}: ${JSON.stringify(refused.body)}`,
    );
  },
};

async function createVideo(
  stage: Stage,
  prompt: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const created = await api(stage, "POST", "/v1/video/generations", { ...VIDEO, prompt }, headers);
  expectThat(
    created.status === 200,
    `create answered ${created.status}: ${JSON.stringify(created.body)}`,
  );
  return String(created.body.task_id);
}

const retry: Scenario = {
  name: "a job the upstream fails for content policy: retried unchanged is 409 not_retryable; retried with a new prompt makes one linked job that succeeds, and the same retry again answers it",
  async run(stage) {
    const id = await createVideo(
      stage,
      'a glass city [[sim:task_fail reason="blocked by the content policy"]]',
    );
    const failed = await endedJob(stage, id);
    expectThat(
      failed.status === "failed" &&
        failed.error?.code === "upstream_task_failed" &&
        failed.error?.class === "content_policy",
      `job ${id} ended ${failed.status}: ${JSON.stringify(failed.error)}`,
    );
    const unchanged = await api(stage, "POST", `/v1/jobs/${id}/retry`, {});
    expectThat(
      unchanged.status === 409 && unchanged.body.error?.code === "not_retryable",
      `an unchanged retry answered ${unchanged.status}: ${JSON.stringify(unchanged.body)}`,
    );
    const change = { prompt: "a glass city at noon" };
    const retried = await api(stage, "POST", `/v1/jobs/${id}/retry`, change);
    expectThat(
      retried.status === 200,
      `the retry answered ${retried.status}: ${JSON.stringify(retried.body)}`,
    );
    const retryId = String(retried.body.id);
    expectThat(retried.body.retryOf === id, `the retry's retryOf is ${retried.body.retryOf}`);
    const job = await endedJob(stage, retryId);
    expectThat(
      job.status === "succeeded",
      `retry ${retryId} ended ${job.status}: ${JSON.stringify(job.error)}`,
    );
    expectThat(
      job.request?.prompt === change.prompt,
      `the retry's prompt is ${job.request?.prompt}`,
    );
    const source = await api(stage, "GET", `/v1/jobs/${id}`);
    expectThat(
      source.body.retriedBy === retryId,
      `job ${id}'s retriedBy is ${source.body.retriedBy}`,
    );
    const again = await api(stage, "POST", `/v1/jobs/${id}/retry`, change);
    expectThat(
      again.body.id === retryId,
      `the same retry again answered ${JSON.stringify(again.body)}`,
    );
  },
};

const REUSE = { "x-reelay-reuse": "7d" };

const reuse: Scenario = {
  name: "the same request twice with X-Reelay-Reuse: the second is reused_from the first, charged false, with its own copy; one upstream task",
  async run(stage) {
    const prompt = "a lantern on a jetty, once";
    const tasksBefore = upstreamTasks(stage);
    const first = await endedJob(stage, await createVideo(stage, prompt, REUSE));
    expectThat(first.status === "succeeded", `job ${first.id} ended ${first.status}`);
    const second = await endedJob(stage, await createVideo(stage, prompt, REUSE));
    expectThat(
      second.status === "succeeded" &&
        second.reused_from === first.id &&
        second.charged === false &&
        second.upstreamTaskId === null,
      `the second job: ${JSON.stringify({ status: second.status, reused_from: second.reused_from, charged: second.charged, error: second.error })}`,
    );
    expectThat(
      first.charged === true && first.reused_from === undefined,
      `the first job was not the one charged`,
    );
    expectThat(
      upstreamTasks(stage) - tasksBefore === 1,
      `${upstreamTasks(stage) - tasksBefore} upstream tasks, not 1`,
    );
    const [own] = second.outputs as JsonBody[];
    expectThat(
      own?.key === `outputs/${second.id}/video.mp4` && own?.sha256 === first.outputs?.[0]?.sha256,
      `the second job's output is ${JSON.stringify(own)}`,
    );
    const keys = await keysUnder(stage, `outputs/${second.id}/`);
    expectThat(
      keys.includes(String(own.key)),
      `${own.key} is not in the bucket (found ${keys.join(", ")})`,
    );
  },
};

/**
 * Expires a job's outputs as its retention would: expires_at in the past. Written to the table
 * directly (a stand-in, outside any role) since waiting out even a fraction of a day would make
 * the rehearsal slow; the local stack's housekeeping and S3's lifecycle then delete the objects.
 */
async function expireOutputs(stage: Stage, jobId: string): Promise<void> {
  await stage.standins.ddb.send(
    new UpdateCommand({
      TableName: stage.tableName,
      Key: { pk: jobId },
      UpdateExpression: "SET expiresAt = :past",
      ExpressionAttributeValues: { ":past": new Date(Date.now() - 60_000).toISOString() },
    }),
  );
}

const expiredReuse: Scenario = {
  name: "a reuse whose source's outputs expired makes a fresh upstream task and is charged, not a copy of what expired",
  async run(stage) {
    const prompt = "a kite over dunes, kept briefly";
    const source = await endedJob(stage, await createVideo(stage, prompt, REUSE));
    expectThat(source.status === "succeeded", `job ${source.id} ended ${source.status}`);
    await expireOutputs(stage, String(source.id));
    const expired = await api(stage, "GET", `/v1/jobs/${source.id}`);
    expectThat(expired.body.outputs_expired === true, `job ${source.id} is not shown expired`);
    const tasksBefore = upstreamTasks(stage);
    const fresh = await endedJob(stage, await createVideo(stage, prompt, REUSE));
    expectThat(
      fresh.status === "succeeded" && fresh.reused_from === undefined && fresh.charged === true,
      `the request after the source expired: ${JSON.stringify({ status: fresh.status, reused_from: fresh.reused_from, charged: fresh.charged, error: fresh.error })}`,
    );
    expectThat(
      upstreamTasks(stage) - tasksBefore === 1,
      `${upstreamTasks(stage) - tasksBefore} upstream tasks, not 1`,
    );
  },
};

/**
 * Ages a job: finished two hours ago. Written to the table directly (a stand-in, outside any
 * role), since a reuse's max age is at least a minute and the rehearsal waits on conditions only.
 */
async function finishedLongAgo(stage: Stage, jobId: string): Promise<void> {
  await stage.standins.ddb.send(
    new UpdateCommand({
      TableName: stage.tableName,
      Key: { pk: jobId },
      UpdateExpression: "SET finishedAt = :then",
      ExpressionAttributeValues: { ":then": new Date(Date.now() - 7_200_000).toISOString() },
    }),
  );
}

const agedReuse: Scenario = {
  name: "a reuse whose source finished longer ago than its max age (1h) makes a fresh upstream task and is charged",
  async run(stage) {
    const prompt = "a heron at first light, aged";
    const source = await endedJob(stage, await createVideo(stage, prompt, REUSE));
    expectThat(source.status === "succeeded", `job ${source.id} ended ${source.status}`);
    await finishedLongAgo(stage, String(source.id));
    const tasksBefore = upstreamTasks(stage);
    const fresh = await endedJob(
      stage,
      await createVideo(stage, prompt, { "x-reelay-reuse": "1h" }),
    );
    expectThat(
      fresh.status === "succeeded" && fresh.reused_from === undefined && fresh.charged === true,
      `the request past the max age: ${JSON.stringify({ status: fresh.status, reused_from: fresh.reused_from, charged: fresh.charged, error: fresh.error })}`,
    );
    expectThat(
      upstreamTasks(stage) - tasksBefore === 1,
      `${upstreamTasks(stage) - tasksBefore} upstream tasks, not 1`,
    );
  },
};

export const MONEY_SCENARIOS: Scenario[] = [budgetBatch, retry, reuse, agedReuse, expiredReuse];
