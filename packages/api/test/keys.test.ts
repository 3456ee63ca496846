/**
 * API keys: stored hashed, each key sees only its own jobs, 401 for a missing or unknown key, 404
 * for another project's job, revocation takes effect at once. The admin key is the harness's API_KEY.
 */
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyStore, hashApiKey, type JobStore } from "@reelay/core/adapters";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { createApp } from "../src/app.ts";
import { API_KEY, freshTable, testApiDeps, VALID } from "./support/harness.ts";

let aws: LocalAws;
let app: ReturnType<typeof createApp>;
let jobs: JobStore;
let keys: ApiKeyStore;

beforeAll(async () => {
  aws = await startLocalAws();
  const tableName = await freshTable(aws, "keys");
  const { deps, wiring } = testApiDeps(
    aws,
    { tableName },
    { eventStream: { subscribe: () => () => undefined } },
  );
  keys = wiring.keys;
  jobs = wiring.pipeline.jobs;
  app = createApp(deps);
});
afterAll(() => aws.stop());

type Json = Record<string, any>;

async function call(
  method: string,
  path: string,
  key: string | undefined,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const response = await app.request(path, {
    method,
    headers: {
      ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }),
      "Content-Type": "application/json",
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

async function newKey(name: string): Promise<{ id: string; key: string }> {
  const answer = await call("POST", "/v1/keys", API_KEY, { name });
  expect(answer.status).toBe(201);
  return { id: answer.body.id, key: answer.body.key };
}

async function createJob(key: string): Promise<string> {
  const answer = await call("POST", "/v1/video/generations", key, VALID);
  expect(answer.status).toBe(200);
  return answer.body.task_id;
}

describe("API keys", () => {
  it("a created key is returned once, listed without its secret, and stored only as its sha256", async () => {
    const { id, key } = await newKey("alice");
    expect(key).toMatch(/^rk_[A-Za-z0-9_-]{43}$/);
    const listed = await call("GET", "/v1/keys", API_KEY);
    expect(listed.body.data).toContainEqual(expect.objectContaining({ id, name: "alice" }));
    expect(JSON.stringify(listed.body)).not.toContain(key);

    const table = await aws.ddb.send(new ScanCommand({ TableName: jobs.tableName }));
    const everything = JSON.stringify(table.Items);
    expect(everything).not.toContain(key);
    expect(everything).toContain(hashApiKey(key));
  });

  it("a malformed budget is 400 invalid_request with its path (an absurd amount too, large or tiny, which the store could not hold)", async () => {
    for (const [budget, path] of [
      [{ amount: 1.7976931348623123e308, unit: "units" }, "budget.amount"],
      [{ amount: 1e-168 }, "budget.amount"],
      [{ amount: -1 }, "budget.amount"],
      [{ amount: 5, period: "week" }, "budget.period"],
    ] as const) {
      const answer = await call("POST", "/v1/keys", API_KEY, { name: "b", budget });
      expect([answer.status, answer.body.error.code, answer.body.error.path]).toEqual([
        400,
        "invalid_request",
        path,
      ]);
    }
  });

  it("401 for a missing and for an unknown key, on jobs and on keys", async () => {
    for (const path of ["/v1/jobs", "/v1/keys"]) {
      expect((await call("GET", path, undefined)).status).toBe(401);
      expect((await call("GET", path, "rk_not-a-key-anyone-was-given")).status).toBe(401);
    }
  });

  it("each key sees only its own jobs; another key's job (another project's) is 404 job_not_found on get, task, cancel; the admin key sees both", async () => {
    const alice = await newKey("alice");
    const bob = await newKey("bob");
    const aliceJob = await createJob(alice.key);
    const bobJob = await createJob(bob.key);

    const aliceList = await call("GET", "/v1/jobs?limit=100", alice.key);
    expect(aliceList.status).toBe(200);
    expect(aliceList.body.data.map((job: Json) => job.id)).toEqual([aliceJob]);

    expect((await call("GET", `/v1/jobs/${aliceJob}`, alice.key)).status).toBe(200);
    expect((await call("GET", `/v1/video/tasks/${aliceJob}`, alice.key)).status).toBe(200);
    for (const [method, path] of [
      ["GET", `/v1/jobs/${bobJob}`],
      ["GET", `/v1/video/tasks/${bobJob}`],
      ["POST", `/v1/jobs/${bobJob}/cancel`],
    ] as const) {
      const answer = await call(method, path, alice.key);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error.code).toBe("job_not_found");
    }
    expect((await jobs.get(bobJob))?.status).toBe("queued");

    const adminIds = (await call("GET", "/v1/jobs?limit=100", API_KEY)).body.data.map(
      (job: Json) => job.id,
    );
    expect(adminIds).toEqual(expect.arrayContaining([aliceJob, bobJob]));
    expect((await call("GET", `/v1/jobs/${bobJob}`, API_KEY)).status).toBe(200);
  });

  it("the event stream (every job's events) is 403 forbidden for a stored key", async () => {
    const { key } = await newKey("gina");
    const answer = await call("GET", "/v1/events", key);
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe("forbidden");
  });

  it("an unknown job id is still 404 for a stored key", async () => {
    const { key } = await newKey("carol");
    expect((await call("GET", "/v1/jobs/vidtsk_01ARZ3NDEKTSV4RRFFQ69G5FAV", key)).status).toBe(404);
  });

  it("only the admin key manages keys: a stored key gets 403 on create, list and revoke", async () => {
    const { id, key } = await newKey("dave");
    expect((await call("POST", "/v1/keys", key, { name: "x" })).status).toBe(403);
    expect((await call("GET", "/v1/keys", key)).status).toBe(403);
    expect((await call("DELETE", `/v1/keys/${id}`, key)).status).toBe(403);
  });

  it("a revoked key is 401 at once, stays listed as revoked, and an unknown key id is 404", async () => {
    const { id, key } = await newKey("erin");
    expect((await call("GET", "/v1/jobs", key)).status).toBe(200);
    const revoked = await call("DELETE", `/v1/keys/${id}`, API_KEY);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    expect((await call("GET", "/v1/jobs", key)).status).toBe(401);
    const listed = (await call("GET", "/v1/keys", API_KEY)).body.data.find(
      (record: Json) => record.id === id,
    );
    expect(listed.revokedAt).toBe(revoked.body.revokedAt);
    expect((await call("DELETE", "/v1/keys/key_01ARZ3NDEKTSV4RRFFQ69G5FAV", API_KEY)).status).toBe(
      404,
    );
  });

  it("stored keys never show up as jobs in the admin's listing", async () => {
    await newKey("frank");
    const ids: string[] = (await call("GET", "/v1/jobs?limit=100", API_KEY)).body.data.map(
      (job: Json) => job.id,
    );
    expect(ids.every((id) => /^(vidtsk|imgtsk)_/.test(id))).toBe(true);
  });
});

describe("a key's budget and limits as admission reads them", () => {
  it("a key made after another instance read its listing is found with its budget and limits at once, not 10 s later", async () => {
    const reader = new ApiKeyStore(aws.ddb, jobs.tableName);
    // The listing is read (and kept for 10 s) before the key exists.
    expect(await reader.budgetOf("key_01JD8Z9Q6W4S7Y3K2M1N0P5R8T")).toBeUndefined();
    const { record } = await keys.create({
      name: "late",
      budget: { amount: 3, unit: "currency", period: "day" },
      limits: { max_queued: 7 },
    });
    expect(await reader.budgetOf(record.id)).toEqual({
      amount: 3,
      unit: "currency",
      period: "day",
    });
    expect(await reader.limitsOf(record.id)).toEqual({ max_queued: 7 });
  });
});
