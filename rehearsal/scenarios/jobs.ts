/**
 * The jobs a user runs on the first day, through the rehearsed API: a video, an image, a cancel,
 * and a video on a trial stage's deployed simulator. Each ends as it does on the local stack: same
 * status, same error code, same objects.
 */
import { RETENTION_TAG } from "@reelay/core/domain";
import { SIMULATOR_HANDLER, TRIAL_ACCOUNT, TRIAL_MODEL } from "../stage.ts";
import { createVideo } from "./flow.ts";
import { api, endedJob, expectThat, keysUnder, type Scenario, tagsOf, waitFor } from "./support.ts";

const video: Scenario = {
  name: "a video job kept 7 days: created, polled, downloaded, finished, one event, every object tagged with its retention",
  async run(stage) {
    const created = await api(
      stage,
      "POST",
      "/v1/video/generations",
      { model: "gamma-3.1", prompt: "a lighthouse at dusk, waves breaking", duration_sec: 4 },
      { "x-reelay-retention-days": "7" },
    );
    expectThat(
      created.status === 200,
      `create answered ${created.status}: ${JSON.stringify(created.body)}`,
    );
    const id = String(created.body.task_id);
    const job = await endedJob(stage, id);
    expectThat(
      job.status === "succeeded",
      `job ${id} ended ${job.status}: ${JSON.stringify(job.error)}`,
    );
    const keys = await keysUnder(stage, `outputs/${id}/`);
    for (const name of ["video.mp4", "job.json"])
      expectThat(
        keys.includes(`outputs/${id}/${name}`),
        `outputs/${id}/${name} is missing (found ${keys.join(", ")})`,
      );
    // job.json is written once more after the event: read its tags once that write is done.
    await stage.idle();
    const untagged: string[] = [];
    for (const key of keys) {
      const tags = await tagsOf(stage, key);
      if (tags[RETENTION_TAG] !== "7") untagged.push(`${key} ${JSON.stringify(tags)}`);
    }
    expectThat(untagged.length === 0, `not tagged ${RETENTION_TAG}=7: ${untagged.join(", ")}`);
    // Finish writes the terminal record, then puts the event: it may reach the bus just after.
    await waitFor("the terminal event at the webhook rule's target", async () =>
      stage.bus.matched().some((m) => m.target.includes("Webhook")) ? true : undefined,
    );
  },
};

const image: Scenario = {
  name: "an image job through the contract's chat completions route",
  async run(stage) {
    const created = await api(stage, "POST", "/v1/chat/completions", {
      model: "deltaq2-image",
      messages: [{ role: "user", content: "a red apple on a table" }],
      modalities: ["image", "text"],
      image_config: { aspect_ratio: "1:1", image_size: "2K" },
    });
    expectThat(
      created.status === 200,
      `create answered ${created.status}: ${JSON.stringify(created.body)}`,
    );
    const id = String(created.body.task_id ?? created.body.id);
    const job = await endedJob(stage, id);
    expectThat(
      job.status === "succeeded",
      `job ${id} ended ${job.status}: ${JSON.stringify(job.error)}`,
    );
    const keys = await keysUnder(stage, `outputs/${id}/`);
    expectThat(
      keys.some((k) => /image/.test(k)),
      `no image under outputs/${id}/ (found ${keys.join(", ")})`,
    );
  },
};

const cancel: Scenario = {
  name: "a cancel stops the execution: cancelled, error cancelled",
  async run(stage) {
    const created = await api(stage, "POST", "/v1/video/generations", {
      model: "gamma-3.1",
      prompt: "a clock with no hands [[sim:never_finish]]",
      duration_sec: 4,
    });
    expectThat(created.status === 200, `create answered ${created.status}`);
    const id = String(created.body.task_id);
    await waitFor(`job ${id} running`, async () => {
      const { body } = await api(stage, "GET", `/v1/jobs/${id}`);
      return body.status === "running" ? true : undefined;
    });
    const cancelled = await api(stage, "POST", `/v1/jobs/${id}/cancel`, {});
    expectThat(
      cancelled.status === 200,
      `cancel answered ${cancelled.status}: ${JSON.stringify(cancelled.body)}`,
    );
    const job = await endedJob(stage, id);
    expectThat(job.status === "cancelled", `job ${id} ended ${job.status}`);
    const execution = stage.states.executions().find((e) => e.name === id);
    expectThat(
      execution?.status === "ABORTED",
      `execution ${id} is ${execution?.status}, not ABORTED`,
    );
  },
};

const deployedSimulator: Scenario = {
  name: "a video job on the deployed simulator's account: created, polled and downloaded through the Simulator function's Function URL (the function run from its bundle, its calls checked against its role), succeeded",
  async run(stage) {
    const simulator = stage.functions.find((f) => f.spec.handler === SIMULATOR_HANDLER);
    expectThat(simulator !== undefined, `no function runs ${SIMULATOR_HANDLER}`);
    const before = simulator.lambda.stats().invocations;
    const prompt = "a paper boat on a pond [[sim:generation_ms=1500]]";
    const id = await createVideo(stage, prompt, {}, { model: TRIAL_MODEL });
    const job = await endedJob(stage, id);
    expectThat(
      job.status === "succeeded" && job.upstream?.account === TRIAL_ACCOUNT,
      `job ${id} ended ${job.status} on ${JSON.stringify(job.upstream)}: ${JSON.stringify(job.error)}`,
    );
    const keys = await keysUnder(stage, `outputs/${id}/`);
    expectThat(keys.includes(`outputs/${id}/video.mp4`), `no video.mp4 (found ${keys.join(", ")})`);
    // The create, a poll at least and the download: each one invocation behind the URL.
    const invoked = simulator.lambda.stats().invocations - before;
    expectThat(invoked >= 3, `the Simulator function was invoked ${invoked} times`);
    const denied = stage.gate
      .calls()
      .filter((c) => c.role === simulator.role.name && !c.verdict.allowed);
    expectThat(
      denied.length === 0,
      `the Simulator function's role was denied ${denied.length} calls`,
    );
  },
};

export const JOB_SCENARIOS: Scenario[] = [video, image, cancel, deployedSimulator];
