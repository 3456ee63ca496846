/**
 * The functions with a pool of upstream accounts, as the stack deploys them: the environment is
 * what stacks/upstream.ts puts on every function (REELAY_UPSTREAMS with each key replaced by its
 * secret's name), and each account's key is bound as SST binds a secret, here as a value on the
 * function (readSecret's own path for it), so no SSM is involved. Two simulators over HTTP are the
 * accounts, each with its own key; dynalite holds the table. Lambda has no local stand-in: the
 * Dispatch wakes a freed slot sends go to a small HTTP server here that accepts every Invoke.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobStore } from "@reelay/core/adapters";
import { validate } from "@reelay/core/domain";
import { createJob, dispatch } from "@reelay/core/usecases";
import { loadConfig, type Wiring } from "@reelay/core/wiring";
import { startSimulator, type Simulator } from "@reelay/simulator";
import { startLocalAws, type LocalAws } from "../../packages/core/test/support/local-aws.ts";
import { awsWiring } from "../../functions/support/deps.ts";
import { runStep } from "../../functions/support/step.ts";
import { poolEnvironment } from "../../stacks/upstream.ts";
import { functionEnv } from "../support/function-env.ts";

interface Account {
  name: string;
  secret: string;
  key: string;
  sim: Simulator;
}

let aws: LocalAws;
let jobs: JobStore;
let accounts: Account[] = [];
let lambda: Server;
let wakes = 0;

/** Answers Lambda's asynchronous Invoke as Lambda does (202), counting the wakes. */
async function startLambda(): Promise<string> {
  lambda = createServer((req, res) => {
    req.resume().on("end", () => {
      wakes++;
      res.writeHead(202, { "content-type": "application/json" }).end("");
    });
  });
  await new Promise<void>((r) => lambda.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(lambda.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  aws = await startLocalAws();
  jobs = new JobStore(aws.ddb, aws.tableName);
  accounts = await Promise.all(
    [
      ["alpha", "UPSTREAM_API_KEY_ALPHA"],
      ["beta-eu", "UPSTREAM_API_KEY_BETA_EU"],
    ].map(async ([name, secret]) => {
      const key = `sk-${name}-${randomBytes(12).toString("hex")}`;
      const sim = await startSimulator({ apiKey: key, generationMs: 1_000, timeScale: 0.05 });
      return { name: name as string, secret: secret as string, key, sim };
    }),
  );
  // The pool as the deployer writes it; `ordered` with alpha's one slot sends a second job to beta-eu.
  const deployed = loadConfig({
    REELAY_UPSTREAMS: JSON.stringify(
      accounts.map((a, i) => ({
        name: a.name,
        url: a.sim.url,
        api_key: a.key,
        ...(i === 0 ? { concurrency: 1 } : {}),
      })),
    ),
    REELAY_ROUTING: "ordered",
  });
  Object.assign(process.env, {
    ...functionEnv(aws),
    ...poolEnvironment(deployed),
    REELAY_DISPATCH_FUNCTION: "test-reelay-dispatch",
    AWS_ENDPOINT_URL_LAMBDA: await startLambda(),
  });
});

afterAll(async () => {
  await Promise.all(accounts.map((a) => a.sim.close()));
  lambda?.close();
  await aws?.stop();
});

/** Binds each account's secret to "this function", as SST does with a value. */
function bindKeys(): void {
  for (const { secret, key } of accounts) process.env[`SST_Secret_value_${secret}`] = key;
}

async function newJob(prompt: string) {
  const validation = validate({ model: "gamma-3.1", prompt, duration_sec: 4 });
  if (!validation.valid) throw new Error("the test request is invalid");
  return (await createJob(jobs, { validation, source: { type: "api", apiKeyId: "key_a" } })).job;
}

/** Queues a job and runs the dispatcher once, as the API and the Dispatch function do. */
async function admit(wiring: Wiring, prompt: string): Promise<string> {
  const job = await newJob(prompt);
  await wiring.queue.start(job);
  const started: string[] = [];
  const result = await dispatch({
    ...wiring.pipeline,
    starter: { start: async (admitted) => void started.push(admitted.id) },
  });
  expect(result.admitted).toEqual([job.id]);
  expect(started).toEqual([job.id]);
  return job.id;
}

/** Submit, then Poll until the task ends, as the state machine runs them. */
async function runToDownload(jobId: string): Promise<Record<string, unknown>> {
  let state = (await runStep("submit", { jobId })) as Record<string, unknown>;
  for (let polls = 0; state.outcome === "running" && polls < 100; polls++) {
    await new Promise((r) => setTimeout(r, 50));
    state = (await runStep("poll", state)) as Record<string, unknown>;
  }
  return state;
}

describe("functions over a pool of upstream accounts", () => {
  let queueing: Wiring;

  it("a function that does not call the upstream knows every account and holds no client and no key; one that does cannot start without its accounts' secrets", async () => {
    queueing = await awsWiring({ callsUpstream: false, waker: { wake: async () => {} } });
    expect(queueing.pipeline.admission.accounts.map((a) => a.name)).toEqual(["alpha", "beta-eu"]);
    expect(queueing.pipeline.admission.isPool).toBe(true);
    expect(queueing.pipeline.upstreams?.client("alpha")).toBeUndefined();
    expect(queueing.pipeline.upstreams?.client("beta-eu")).toBeUndefined();
    await expect(awsWiring({ callsUpstream: true })).rejects.toMatchObject({
      code: "secret_not_bound",
      path: "UPSTREAM_API_KEY_ALPHA",
    });
  });

  it("Submit and Poll hold one client per account, each with its own key from its secret: a job is created and polled only on the account it was admitted to", async () => {
    bindKeys();
    const onAlpha = await admit(queueing, "a lighthouse at dusk");
    const onBeta = await admit(queueing, "a fox in the snow");
    const states = [await runToDownload(onAlpha), await runToDownload(onBeta)];
    expect(states.map((s) => s.outcome)).toEqual(["succeeded", "succeeded"]);

    const [alpha, beta] = accounts as [Account, Account];
    for (const [id, own, other] of [
      [onAlpha, alpha, beta],
      [onBeta, beta, alpha],
    ] as const) {
      const job = await jobs.require(id);
      expect(job.upstreamAccount, id).toBe(own.name);
      const taskId = job.upstreamTaskId as string;
      expect(own.sim.task(taskId), `${id} on ${own.name}`).toBeDefined();
      expect(other.sim.task(taskId), `${id} not on ${other.name}`).toBeUndefined();
      expect(own.sim.counters().pollsByTask[taskId]).toBeGreaterThan(0);
      expect(other.sim.counters().pollsByTask[taskId]).toBeUndefined();
    }
    // Each account was sent its own key only (never another's, never the placeholder): every
    // request it received was a create or a poll it answered, none refused as unauthorized.
    for (const { name, key, sim } of accounts) {
      const counted = sim.counters();
      expect(Object.keys(counted.peakInFlightByApiKey), name).toEqual([key]);
      expect(counted.requests, name).toBe(counted.creates + counted.polls);
    }
    // Both tasks ended, so both slots were freed, each with a wake of the Dispatch function.
    expect(wakes).toBeGreaterThanOrEqual(2);
  });
});
