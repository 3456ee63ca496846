/**
 * Metadata end to end on the local stack: a job made through the contract's route with
 * X-Reelay-Metadata, and a batch made through reelay's route with `metadata` in its body (one
 * request with its own), come back with their pairs in the job's view, job.json, the terminal
 * event, the job's webhook, the batch's view, its results and its Batch Completed; GET
 * /v1/jobs?metadata.order=42 finds exactly the one job, and refusals name the key. The same jobs
 * carry an end user (X-Reelay-User, a batch's `user`) beside their metadata, shown in the same
 * places and found by GET /v1/jobs?user= (test/e2e/end-users.test.ts holds the users' limits).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataHeader } from "@reelay/client";
import {
  startReceiver,
  type Receiver,
} from "../../packages/core/test/usecases/webhooks/receiver.ts";
import {
  batchJobIds,
  bearer,
  eventsFor,
  getJson,
  objectText,
  postJson,
  STACK_START_MS,
  startTestStack,
  type TestStack,
  waitFor,
  waitForTerminalJob,
} from "./support/stack.ts";

let receiver: Receiver;
let stack: TestStack;
let key: { id: string; key: string };

beforeAll(async () => {
  receiver = await startReceiver(() => 200);
  stack = await startTestStack({ REELAY_WEBHOOK_SCHEDULE: "0,1,1" });
  // A stored key: a job's own webhook is signed with its key's webhook secret.
  key = (await postJson(`${stack.url}/v1/keys`, stack.apiKey, { name: "metadata" })).body;
}, STACK_START_MS);

afterAll(async () => {
  await stack?.dispose();
  await receiver?.close();
});

const ORDER = { order: "42", customer: "c_981", note: "ünïcode ✓" };
/** The header's value as @reelay/client sends it: JSON with non-ASCII characters as \u escapes. */
const ORDER_HEADER = metadataHeader(ORDER);

function createWithHeaders(headers: Record<string, string>, prompt: string) {
  return fetch(`${stack.url}/v1/video/generations`, {
    method: "POST",
    headers: { ...bearer(key.key), ...headers },
    body: JSON.stringify({ model: "gamma-3.1", prompt, duration_sec: 4 }),
  });
}

function deliveredFor(field: "jobId" | "batchId", id: string) {
  return waitFor(`the webhook of ${id}`, async () => {
    const delivery = receiver.received.find((r) => JSON.parse(r.body).data?.[field] === id);
    return delivery === undefined ? undefined : JSON.parse(delivery.body);
  });
}

const listed = async (query: string) =>
  (await getJson(`${stack.url}/v1/jobs?${query}`, key.key)).body.data.map(
    (job: { id: string }) => job.id,
  );

let orderJob: string;

describe("metadata on a job", () => {
  it("given as X-Reelay-Metadata on the contract's route with X-Reelay-User, both are in the job's view, job.json, its terminal event and its webhook", async () => {
    const response = await createWithHeaders(
      {
        "X-Reelay-Metadata": ORDER_HEADER,
        "X-Reelay-User": "end-user-7",
        "X-Reelay-Webhook": receiver.url,
      },
      "a paper boat with an order",
    );
    expect(response.status).toBe(200);
    orderJob = ((await response.json()) as { task_id: string }).task_id;
    const job = await waitForTerminalJob(stack.url, key.key, orderJob);
    expect(job.status).toBe("succeeded");
    expect(job.metadata).toEqual(ORDER);
    expect(job.user).toBe("end-user-7");
    const manifest = JSON.parse(
      await objectText(stack.s3, stack.bucket, `outputs/${orderJob}/job.json`),
    );
    expect(manifest.metadata).toEqual(ORDER);
    expect(manifest.user).toBe("end-user-7");
    const [event] = await eventsFor(stack.dataDir, orderJob);
    expect(event?.detail.metadata).toEqual(ORDER);
    expect(event?.detail.user).toBe("end-user-7");
    const payload = await deliveredFor("jobId", orderJob);
    expect(payload).toMatchObject({
      type: "Generation Succeeded",
      data: { metadata: ORDER, user: "end-user-7" },
    });
  });

  it("a job made without metadata shows {} in its view and event", async () => {
    const response = await createWithHeaders({}, "a paper boat without an order");
    const id = ((await response.json()) as { task_id: string }).task_id;
    expect((await waitForTerminalJob(stack.url, key.key, id)).metadata).toEqual({});
    expect((await eventsFor(stack.dataDir, id))[0]?.detail.metadata).toEqual({});
  });

  it("over the limits or not JSON, the create is 400 invalid_metadata naming the key, and nothing is made", async () => {
    const seventeen = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i + 1}`, "v"]));
    const cases: [string, string][] = [
      [JSON.stringify(seventeen), "X-Reelay-Metadata.k17"],
      [JSON.stringify({ ["k".repeat(41)]: "v" }), `X-Reelay-Metadata.${"k".repeat(41)}`],
      [JSON.stringify({ order: "9".repeat(501) }), "X-Reelay-Metadata.order"],
      [JSON.stringify({ order: 42 }), "X-Reelay-Metadata.order"],
      ["order=42", "X-Reelay-Metadata"],
    ];
    for (const [header, path] of cases) {
      const response = await createWithHeaders({ "X-Reelay-Metadata": header }, "refused");
      expect(response.status, header.slice(0, 40)).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; path: string } };
      expect(error).toMatchObject({ code: "invalid_metadata", path });
    }
    expect(await listed("metadata.order=9")).toEqual([]);
  });
});

describe("metadata on a batch", () => {
  it("the batch's body metadata, under a line's own, is in each job, the batch's view, its results and its Batch Completed, beside the batch's end user", async () => {
    const posted = await postJson(`${stack.url}/v1/batches`, key.key, {
      metadata: { campaign: "spring", order: "7" },
      user: "end-user-8",
      webhook_url: receiver.url,
      requests: [
        { model: "gamma-3.1", prompt: "a batch kite", duration_sec: 4, metadata: { order: "43" } },
        { model: "gamma-3.1", prompt: "another batch kite", duration_sec: 4 },
      ],
    });
    expect(posted.status).toBe(200);
    expect(posted.body.metadata).toEqual({ campaign: "spring", order: "7" });
    const batchId = posted.body.id as string;
    const completed = await deliveredFor("batchId", batchId);
    expect(completed.data.metadata).toEqual({ campaign: "spring", order: "7" });
    const [first, second] = await batchJobIds(stack.url, key.key, batchId);
    const lineOne = { campaign: "spring", order: "43" };
    const lineTwo = { campaign: "spring", order: "7" };
    expect((await waitForTerminalJob(stack.url, key.key, first as string)).metadata).toEqual(
      lineOne,
    );
    expect((await deliveredFor("jobId", first as string)).data).toMatchObject({
      metadata: lineOne,
      user: "end-user-8",
    });
    const results = (
      await (
        await fetch(`${stack.url}/v1/batches/${batchId}/results`, { headers: bearer(key.key) })
      ).text()
    )
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(results.map((line) => [line.job_id, line.metadata, line.user])).toEqual([
      [first, lineOne, "end-user-8"],
      [second, lineTwo, "end-user-8"],
    ]);
    const stored = await objectText(stack.s3, stack.bucket, completed.data.results.key);
    expect(
      stored
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).metadata),
    ).toEqual([lineOne, lineTwo]);
  });
});

describe("GET /v1/jobs?metadata.KEY=VALUE", () => {
  it("finds exactly the job whose metadata holds the pair, all pairs given, with the other filters", async () => {
    expect(await listed("metadata.order=42")).toEqual([orderJob]);
    expect(await listed("metadata.order=42&metadata.customer=c_981&status=succeeded")).toEqual([
      orderJob,
    ]);
    expect(await listed(`metadata.note=${encodeURIComponent(ORDER.note)}`)).toEqual([orderJob]);
    expect(await listed("metadata.order=42&metadata.customer=someone-else")).toEqual([]);
    expect(await listed("metadata.order=42&status=failed")).toEqual([]);
    expect((await listed("metadata.campaign=spring&limit=1")).length).toBe(1);
  });

  it("GET /v1/jobs?user= finds the end user's jobs, alone and with a metadata pair", async () => {
    expect(await listed("user=end-user-7")).toEqual([orderJob]);
    expect(await listed("user=end-user-7&metadata.order=42")).toEqual([orderJob]);
    expect(await listed("user=end-user-8&metadata.order=42")).toEqual([]);
    expect((await listed("user=end-user-8")).length).toBe(2);
  });

  it("a key over 40 characters, a value over 500, a 17th pair or a bare metadata parameter is 400 invalid_metadata naming the parameter", async () => {
    const long = `metadata.${"k".repeat(41)}`;
    for (const [query, path] of [
      [`${long}=1`, long],
      ["metadata=42", "metadata"],
      [`metadata.order=${"9".repeat(501)}`, "metadata.order"],
      [Array.from({ length: 17 }, (_, i) => `metadata.k${i + 1}=v`).join("&"), "metadata.k17"],
    ]) {
      const { status, body } = await getJson(`${stack.url}/v1/jobs?${query}`, key.key);
      expect(status, query).toBe(400);
      expect(body.error).toMatchObject({ code: "invalid_metadata", path });
    }
  });
});
