/**
 * Acceptance: batches as first-class objects on the local stack. POST /v1/batches (JSONL) makes one
 * job per valid line and keeps bad lines as rejected; its counts always sum to its total; it ends
 * with results (one line per request line, fresh links), results.jsonl in S3 and exactly one Batch
 * Completed event. A multi-line drop is a batch too; cancel ends what has not ended.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  getJson,
  objectText,
  postJson,
  startTestStack,
  type TestStack,
  waitFor,
  OS2_PRICES,
  STACK_START_MS,
} from "./support/stack.ts";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({
    REELAY_UPSTREAM_CONCURRENCY: "3",
    // os-2 priced, gamma-3.1 not: a quote sums what it can and counts the rest.
    REELAY_PRICES: OS2_PRICES,
  });
}, STACK_START_MS);
afterAll(async () => {
  await stack?.dispose();
});

const line = (prompt: string, extra: object = {}) =>
  JSON.stringify({ model: "os-2", prompt, duration_sec: 4, ...extra });

async function postBatch(body: string, query = "", key = stack.apiKey) {
  const response = await fetch(`${stack.url}/v1/batches${query}`, {
    method: "POST",
    headers: { ...bearer(key), "content-type": "application/x-ndjson" },
    body,
  });
  return { status: response.status, body: (await response.json()) as any };
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

async function completed(id: string): Promise<any> {
  return waitFor(
    `batch ${id} to complete`,
    async () => {
      const { body } = await getJson(`${stack.url}/v1/batches/${id}`, stack.apiKey);
      expect(sum(body.counts)).toBe(body.total);
      return body.status === "completed" && body.results !== null ? body : undefined;
    },
    90_000,
  );
}

async function batchEvents(id: string): Promise<any[]> {
  const text = await readFile(join(stack.dataDir, "events.jsonl"), "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l))
    .filter((event) => event.detail.batchId === id);
}

describe("batches on the local stack", () => {
  it("a JSONL body of 6 lines, one invalid: 5 jobs succeed, 1 rejected, results per line, results.jsonl, one Batch Completed event", async () => {
    const body = [
      line("a lighthouse 1"),
      line("a lighthouse 2"),
      line("a kite", { duration_sec: 5 }),
      "",
      line("a lighthouse 3"),
      line("a lighthouse 4"),
      line("a lighthouse 5"),
    ].join("\n");
    const created = await postBatch(body);
    expect(created.status).toBe(200);
    expect(created.body.id).toMatch(/^bat_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(created.body.total).toBe(6);
    expect(created.body.counts.rejected).toBe(1);
    expect(sum(created.body.counts)).toBe(6);

    const done = await completed(created.body.id);
    expect(done.counts).toMatchObject({ succeeded: 5, rejected: 1, queued: 0, running: 0 });
    expect(done.finished_at).not.toBeNull();

    const results = await fetch(`${stack.url}/v1/batches/${done.id}/results`, {
      headers: bearer(stack.apiKey),
    });
    expect(results.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = (await results.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.line)).toEqual([1, 2, 3, 5, 6, 7]);
    const rejected = lines.find((l) => l.line === 3);
    expect(rejected).toMatchObject({ status: "rejected", job_id: null });
    expect(rejected.error.errors[0]).toMatchObject({ path: "duration_sec" });
    for (const ok of lines.filter((l) => l.status !== "rejected")) {
      expect(ok.status).toBe("succeeded");
      const video = await fetch(ok.outputs[0].url);
      expect(video.status).toBe(200);
      expect((await video.arrayBuffer()).byteLength).toBe(ok.outputs[0].bytes);
    }
    const stored = await objectText(stack.s3, stack.bucket, done.results.key);
    expect(stored.trim().split("\n")).toHaveLength(6);
    const events = await batchEvents(done.id);
    expect(events.map((e) => e["detail-type"])).toEqual(["Batch Completed"]);
    expect(events[0].detail.counts).toMatchObject({ succeeded: 5, rejected: 1 });
  });

  it("dry_run=true answers what would be made, its estimate, and makes nothing", async () => {
    const before = (await getJson(`${stack.url}/v1/batches`, stack.apiKey)).body.data.length;
    const quote = await postBatch(
      [
        line("a"),
        line("b", { duration_sec: 5 }),
        line("c", { duration_sec: 8 }),
        line("d", { model: "gamma-3.1", duration_sec: 6 }),
      ].join("\n"),
      "?dry_run=true",
    );
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ dry_run: true, total: 4, valid: 3 });
    expect(quote.body.rejected[0].line).toBe(2);
    expect(quote.body.estimate).toEqual({
      usage: { video_seconds: 18, images: 0 },
      cost: 0.3,
      currency: "USD",
      unpriced: 1,
    });
    expect((await getJson(`${stack.url}/v1/batches`, stack.apiKey)).body.data).toHaveLength(before);
  });

  it("a drop of several prompts is a batch, listed with its source file", async () => {
    const body = [line("drop 1"), line("drop 2"), line("drop 3")].join("\n");
    await stack.s3.send(
      new PutObjectCommand({ Bucket: stack.bucket, Key: "inbox/three.jsonl", Body: body }),
    );
    const listed = await waitFor("the drop's batch", async () => {
      const { body: list } = await getJson(`${stack.url}/v1/batches`, stack.apiKey);
      return (list.data as any[]).find((b) => b.source?.key === "inbox/three.jsonl");
    });
    expect(listed).toMatchObject({ total: 3, priority: "low" });
    const done = await completed(listed.id);
    expect(done.counts.succeeded).toBe(3);
  });

  it("cancel ends every job not yet ended; the batch completes with them cancelled", async () => {
    const slow = Array.from({ length: 5 }, (_, i) =>
      line(`slow ${i} [[sim:generation_ms=600000]]`),
    ).join("\n");
    const created = await postBatch(slow);
    const cancelled = await postJson(
      `${stack.url}/v1/batches/${created.body.id}/cancel`,
      stack.apiKey,
      {},
    );
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.cancelled_at).not.toBeNull();
    const done = await completed(created.body.id);
    expect(done.counts).toMatchObject({ cancelled: 5, succeeded: 0 });
  });

  it("another key's batch is 404, as a missing one", async () => {
    const created = await postBatch(line("mine"));
    const other = await postJson(`${stack.url}/v1/keys`, stack.apiKey, { name: "other" });
    const seen = await getJson(`${stack.url}/v1/batches/${created.body.id}`, other.body.key);
    expect(seen.status).toBe(404);
    expect(seen.body.error.code).toBe("batch_not_found");
    await completed(created.body.id);
  });
});
