/**
 * Retention and delivery on the local stack: a job with retention_days 0.0001 (8.64 s)
 * loses its objects and links within a minute and keeps its record with outputs_expired; the
 * default comes from REELAY_RETENTION_DAYS; expires_at is on the job, the manifest, the event and
 * the batch results; expiring_within lists what is about to go. output.s3_prefix copies the
 * outputs into a bucket of REELAY_OUTPUT_BUCKETS (made in s3rver at start) besides reelay's own.
 * The housekeeping's minute runs at a twentieth (waitScale), the only thing compressed: it only waits.
 */
import { describe, expect, it } from "vitest";
import {
  bearer,
  createVideoJob,
  eventsFor,
  getJson,
  objectExists,
  objectText,
  postJson,
  sha256OfUrl,
  stackPerFile,
  waitFor,
  waitForTerminalJob,
  batchJobIds,
} from "./support/stack.ts";
import { DeleteBucketCommand, GetObjectCommand } from "@aws-sdk/client-s3";
import { createHash } from "node:crypto";

const DAY_MS = 86_400_000;
const OUTPUT_BUCKET = "customer-renders";
/** Listed, made at start, then deleted by a test: a delivery there fails. */
const GONE_BUCKET = "deleted-later";

const stackOf = stackPerFile(
  {
    REELAY_RETENTION_DAYS: "30",
    REELAY_OUTPUT_BUCKETS: `${OUTPUT_BUCKET},another-bucket,${GONE_BUCKET}`,
  },
  {},
  { waitScale: 0.05 },
);

const VIDEO = { model: "os-2", prompt: "a lighthouse in fog", duration_sec: 4 };

function create(headers: Record<string, string>, body: object = VIDEO) {
  const stack = stackOf();
  return fetch(`${stack.url}/v1/video/generations`, {
    method: "POST",
    headers: { ...bearer(stack.apiKey), ...headers },
    body: JSON.stringify(body),
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
}

async function sha256OfObject(bucket: string, key: string): Promise<string> {
  const answer = await stackOf().s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const bytes = await answer.Body?.transformToByteArray();
  return createHash("sha256")
    .update(bytes ?? new Uint8Array())
    .digest("hex");
}

describe("retention per job", () => {
  it("retention_days 0.0001 loses its objects and links within a minute and keeps its record with outputs_expired", async () => {
    const stack = stackOf();
    const made = await create({ "X-Reelay-Retention-Days": "0.0001" });
    expect(made.status).toBe(200);
    const id = made.body.task_id as string;
    const job = await waitForTerminalJob(stack.url, stack.apiKey, id);
    expect(job).toMatchObject({ status: "succeeded", retention_days: 0.0001 });
    const expiresAt = Date.parse(job.expires_at);
    // 8.64 s after the outputs were stored, which is before the job finished.
    expect(expiresAt - Date.parse(job.timings.finishedAt)).toBeLessThanOrEqual(8640);
    expect(expiresAt - Date.parse(job.timings.createdAt)).toBeGreaterThanOrEqual(8640);
    const [event] = await eventsFor(stack.dataDir, id);
    expect(event?.detail.expiresAt).toBe(job.expires_at);
    const key = job.outputs[0].key as string;
    // Finish writes job.json once more after the event; s3rver (unlike S3) overwrites a file in
    // place, so a read meanwhile can see half of it: read until it is whole.
    const manifest = await waitFor("the whole manifest", async () =>
      JSON.parse(await objectText(stack.s3, stack.bucket, `outputs/${id}/job.json`)),
    );
    expect(manifest.expiresAt).toBe(job.expires_at);
    if (Date.now() < expiresAt - 2000) {
      // A link while the outputs are kept never outlives them.
      expect(job.outputs_expired).toBe(false);
      expect(Date.parse(job.outputs[0].expiresAt)).toBeLessThanOrEqual(expiresAt);
      expect((await fetch(job.outputs[0].url)).status).toBe(200);
    }

    await waitFor(
      "the expired outputs to be removed",
      async () => ((await objectExists(stack.s3, stack.bucket, key)) ? undefined : true),
      Math.max(0, expiresAt - Date.now()) + 60_000,
      500,
    );
    expect(Date.now() - expiresAt).toBeLessThan(60_000);
    expect(await objectExists(stack.s3, stack.bucket, `outputs/${id}/job.json`)).toBe(false);
    const { status, body: after } = await getJson(`${stack.url}/v1/jobs/${id}`, stack.apiKey);
    expect(status).toBe(200);
    expect(after).toMatchObject({
      status: "succeeded",
      outputs_expired: true,
      expires_at: job.expires_at,
    });
    expect(after.outputs[0]).toMatchObject({ key, url: null, expiresAt: null });
    const { body: task } = await getJson(`${stack.url}/v1/video/tasks/${id}`, stack.apiKey);
    expect(task.status).toBe("succeeded");
    expect(task.video_url).toBeUndefined();
  }, 120_000);

  it("a job without its own retention keeps its outputs REELAY_RETENTION_DAYS, and expiring_within lists it only within that window", async () => {
    const stack = stackOf();
    const id = await createVideoJob(stack, VIDEO);
    const job = await waitForTerminalJob(stack.url, stack.apiKey, id);
    expect(job.retention_days).toBe(30);
    const left = Date.parse(job.expires_at) - Date.now();
    expect(left).toBeGreaterThan(29.9 * DAY_MS);
    expect(left).toBeLessThanOrEqual(30 * DAY_MS);
    // The link is the usual hour: far from expires_at.
    expect((await fetch(job.outputs[0].url)).status).toBe(200);
    const listed = async (seconds: number) =>
      (
        await getJson(`${stack.url}/v1/jobs?expiring_within=${seconds}&limit=100`, stack.apiKey)
      ).body.data.map((j: { id: string }) => j.id);
    expect(await listed(31 * 86_400)).toContain(id);
    expect(await listed(29 * 86_400)).not.toContain(id);
    const bad = await getJson(`${stack.url}/v1/jobs?expiring_within=soon`, stack.apiKey);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_query", path: "expiring_within" });
  }, 60_000);

  it("a batch's retention_days reaches each job and its results line", async () => {
    const stack = stackOf();
    const made = await postJson(`${stack.url}/v1/batches`, stack.apiKey, {
      requests: [VIDEO],
      retention_days: 2.5,
    });
    expect(made.status).toBe(200);
    const [jobId] = await batchJobIds(stack.url, stack.apiKey, made.body.id);
    const job = await waitForTerminalJob(stack.url, stack.apiKey, jobId as string);
    expect(job.retention_days).toBe(2.5);
    const results = await fetch(`${stack.url}/v1/batches/${made.body.id}/results`, {
      headers: bearer(stack.apiKey),
    });
    const [line] = (await results.text())
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text));
    expect(line).toMatchObject({ expires_at: job.expires_at, outputs_expired: false });
  }, 60_000);

  it.each([
    ["0", "X-Reelay-Retention-Days"],
    ["-1", "X-Reelay-Retention-Days"],
    ["a week", "X-Reelay-Retention-Days"],
    ["3651", "X-Reelay-Retention-Days"],
  ])(
    "X-Reelay-Retention-Days: %s is 400 invalid_retention naming the header",
    async (value, path) => {
      const made = await create({ "X-Reelay-Retention-Days": value });
      expect(made.status).toBe(400);
      expect(made.body.error).toMatchObject({ code: "invalid_retention", path });
    },
  );

  it("a batch's retention_days that is not a number is 400 invalid_retention naming the field", async () => {
    const stack = stackOf();
    const made = await postJson(`${stack.url}/v1/batches`, stack.apiKey, {
      requests: [VIDEO],
      retention_days: "7",
    });
    expect(made.status).toBe(400);
    expect(made.body.error).toMatchObject({ code: "invalid_retention", path: "retention_days" });
  });
});

describe("delivery into the user's own bucket", () => {
  it("a batch's output.s3_prefix copies each output into that bucket besides reelay's, the same bytes", async () => {
    const stack = stackOf();
    const made = await postJson(`${stack.url}/v1/batches`, stack.apiKey, {
      requests: [VIDEO],
      output: { s3_prefix: `s3://${OUTPUT_BUCKET}/renders/2026` },
    });
    expect(made.status).toBe(200);
    const [id] = await batchJobIds(stack.url, stack.apiKey, made.body.id);
    const job = await waitForTerminalJob(stack.url, stack.apiKey, id as string);
    expect(job.status).toBe("succeeded");
    expect(job.output_target).toEqual({ s3_prefix: `s3://${OUTPUT_BUCKET}/renders/2026/` });
    const delivered = { bucket: OUTPUT_BUCKET, key: `renders/2026/${id}/video.mp4` };
    expect(job.outputs[0].delivered).toEqual(delivered);
    expect(job.warnings).toEqual([]);
    expect(await sha256OfObject(delivered.bucket, delivered.key)).toBe(job.outputs[0].sha256);
    // Besides, not instead: reelay's own copy and its link are there too.
    expect((await sha256OfUrl(job.outputs[0].url)).sha256).toBe(job.outputs[0].sha256);
    const [event] = await eventsFor(stack.dataDir, id as string);
    expect(event?.detail.output?.delivered).toEqual(delivered);
  }, 60_000);

  it("X-Reelay-Output-S3-Prefix on the contract's create route delivers the video there", async () => {
    const stack = stackOf();
    const made = await create({ "X-Reelay-Output-S3-Prefix": `s3://another-bucket/` });
    expect(made.status).toBe(200);
    const id = made.body.task_id as string;
    const job = await waitForTerminalJob(stack.url, stack.apiKey, id);
    expect(job.outputs[0].delivered).toEqual({ bucket: "another-bucket", key: `${id}/video.mp4` });
    expect(await objectExists(stack.s3, "another-bucket", `${id}/video.mp4`)).toBe(true);
  }, 60_000);

  it("a delivery that fails is the warning output_delivery_failed; the job still succeeds with reelay's own copy", async () => {
    const stack = stackOf();
    await stack.s3.send(new DeleteBucketCommand({ Bucket: GONE_BUCKET }));
    const made = await create({ "X-Reelay-Output-S3-Prefix": `s3://${GONE_BUCKET}/x/` });
    expect(made.status).toBe(200);
    const job = await waitForTerminalJob(stack.url, stack.apiKey, made.body.task_id as string);
    expect(job.status).toBe("succeeded");
    expect(job.outputs[0].delivered).toBeUndefined();
    expect(job.warnings).toEqual([
      expect.objectContaining({ code: "output_delivery_failed", path: "output.s3_prefix" }),
    ]);
    expect(job.warnings[0].message).toContain("NoSuchBucket");
    expect((await sha256OfUrl(job.outputs[0].url)).sha256).toBe(job.outputs[0].sha256);
  }, 60_000);

  it("a bucket outside REELAY_OUTPUT_BUCKETS is 400 output_bucket_not_allowed naming the field, and nothing is made", async () => {
    const stack = stackOf();
    const before = (await getJson(`${stack.url}/v1/jobs?limit=100`, stack.apiKey)).body.data.length;
    const header = await create({ "X-Reelay-Output-S3-Prefix": "s3://someone-elses/x/" });
    expect(header.status).toBe(400);
    expect(header.body.error).toMatchObject({
      code: "output_bucket_not_allowed",
      path: "X-Reelay-Output-S3-Prefix",
    });
    const batch = await postJson(`${stack.url}/v1/batches`, stack.apiKey, {
      requests: [VIDEO],
      output: { s3_prefix: "s3://someone-elses/x/" },
    });
    expect(batch.status).toBe(400);
    expect(batch.body.error).toMatchObject({
      code: "output_bucket_not_allowed",
      path: "output.s3_prefix",
    });
    const malformed = await postJson(`${stack.url}/v1/batches`, stack.apiKey, {
      requests: [VIDEO],
      output: { s3_prefix: "https://example.com/x/" },
    });
    expect(malformed.body.error).toMatchObject({
      code: "invalid_output_target",
      path: "output.s3_prefix",
    });
    const after = (await getJson(`${stack.url}/v1/jobs?limit=100`, stack.apiKey)).body.data.length;
    expect(after).toBe(before);
  });
});
