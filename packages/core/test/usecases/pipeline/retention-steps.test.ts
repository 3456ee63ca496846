/**
 * Retention and delivery through the pipeline's real parts (dynalite, s3rver, the simulator over
 * HTTP): the Download step writes each output and the manifest with the job's retention tag, sets
 * expires_at and the record's own expiry with the outputs, and copies them into the job's output
 * target; a video's previews (made in Download too) and a reusing job's copies carry the job's own
 * retention too.
 * The store is the real one, watched on the way (s3rver keeps no tags given at a write).
 */
import { CreateBucketCommand, HeadObjectCommand } from "@aws-sdk/client-s3";
import ffmpeg from "@ffmpeg-installer/ffmpeg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJob } from "../../../src/usecases/jobs/create-job.ts";
import type { ObjectStorePort, ObjectTags } from "../../../src/usecases/ports.ts";
import type { TerminalEvent } from "../../../src/domain/events/types.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import { RECORD_KEPT_DAYS, retentionTagDays } from "../../../src/domain/jobs/retention.ts";
import { ffmpegFrames } from "../../../src/adapters/media/ffmpeg-frames.ts";
import { download } from "../../../src/usecases/pipeline/download-step.ts";
import { finish } from "../../../src/usecases/pipeline/finish-step.ts";
import { submit } from "../../../src/usecases/pipeline/submit-step.ts";
import { type Harness, pollToEnd, runFlow, startHarness } from "./harness.ts";

const DAY_MS = 86_400_000;
const TARGET_BUCKET = "customer-renders";

let h: Harness;
/** Each write's key and the tags it asked for. */
const writes: { key: string; tags: ObjectTags | undefined }[] = [];

beforeAll(async () => {
  h = await startHarness();
  await h.aws.s3.send(new CreateBucketCommand({ Bucket: TARGET_BUCKET }));
  const real = h.deps.objects;
  const watched: ObjectStorePort = {
    bucket: real.bucket,
    put: (key, body, options) => {
      writes.push({ key, tags: options.tags });
      return real.put(key, body, options);
    },
    putJson: (key, value, options) => {
      writes.push({ key, tags: options?.tags });
      return real.putJson(key, value, options);
    },
    getStream: (key) => real.getStream(key),
    head: (key) => real.head(key),
    delete: (key) => real.delete(key),
    presignGet: (key, ttlS) => real.presignGet(key, ttlS),
    presignPut: (key, options) => real.presignPut(key, options),
    copyOut: (key, target) => real.copyOut(key, target),
    copy: (from, to, options) => {
      writes.push({ key: to, tags: options?.tags });
      return real.copy(from, to, options);
    },
    uploadStream: (key, body, options) => {
      writes.push({ key, tags: options.tags });
      return real.uploadStream(key, body, options);
    },
  };
  h.deps = { ...h.deps, objects: watched };
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

async function jobWith(fields: {
  retentionDays?: number;
  outputTarget?: { bucket: string; prefix: string };
  reuse?: { id: string };
}) {
  const validation = validate({ model: "gamma-3.1", prompt: "a quiet pier", duration_sec: 4 });
  const { reuse, ...options } = fields;
  const input = { validation, source: { type: "api" as const }, options };
  return (await createJob(h.deps.jobs, reuse === undefined ? input : { ...input, reuse })).job;
}

/** Each write of `jobId`'s objects: its key and the retention tag it asked for. */
function tagsOf(jobId: string): Record<string, string | undefined> {
  const mine = writes.filter((w) => w.key.startsWith(`outputs/${jobId}/`));
  return Object.fromEntries(mine.map((w) => [w.key, w.tags?.["reelay-retention"]]));
}

describe("retention and delivery in the Download step", () => {
  it("writes the output and the manifest tagged with the job's retention, and sets expires_at and the record's expiry with the outputs", async () => {
    const job = await jobWith({ retentionDays: 1.5 });
    const before = Date.now();
    const { status } = await runFlow(h.deps, job.id);
    expect(status).toBe("succeeded");
    const ended = await h.deps.jobs.require(job.id);
    const mine = writes.filter((w) => w.key.includes(job.id));
    expect(mine.map((w) => w.key)).toContain(`outputs/${job.id}/video.mp4`);
    expect(mine.map((w) => w.key)).toContain(`outputs/${job.id}/job.json`);
    for (const write of mine) expect(write.tags, write.key).toEqual({ "reelay-retention": "2" });
    const expires = Date.parse(ended.expiresAt as string);
    expect(expires).toBeGreaterThanOrEqual(before + 1.5 * DAY_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + 1.5 * DAY_MS);
    expect(ended.recordTtl).toBe(Math.ceil((expires + RECORD_KEPT_DAYS * DAY_MS) / 1000));
    const events = (await h.events.readAll()) as TerminalEvent[];
    expect(events.find((e) => e.detail.jobId === job.id)?.detail.expiresAt).toBe(ended.expiresAt);
  });

  it("a job kept for good is written untagged and has no expiry", async () => {
    const job = await jobWith({});
    expect((await runFlow(h.deps, job.id)).status).toBe("succeeded");
    const ended = await h.deps.jobs.require(job.id);
    expect(ended.expiresAt).toBeUndefined();
    expect(ended.recordTtl).toBeUndefined();
    for (const write of writes.filter((w) => w.key.includes(job.id)))
      expect(write.tags, write.key).toBeUndefined();
  });

  it("copies the verified output into the job's target besides the bucket, and records where", async () => {
    const job = await jobWith({ outputTarget: { bucket: TARGET_BUCKET, prefix: "renders/" } });
    expect((await runFlow(h.deps, job.id)).status).toBe("succeeded");
    const ended = await h.deps.jobs.require(job.id);
    const key = `renders/${job.id}/video.mp4`;
    expect(ended.outputs?.[0]?.delivered).toEqual({ bucket: TARGET_BUCKET, key });
    const copy = await h.aws.s3.send(new HeadObjectCommand({ Bucket: TARGET_BUCKET, Key: key }));
    expect(copy.ContentLength).toBe(ended.outputs?.[0]?.bytes);
    expect(await h.deps.objects.head(`outputs/${job.id}/video.mp4`)).toBeDefined();
  });
});

describe("retention on every object a job writes", () => {
  it("tags the previews with the job's retention, and a reusing job's copies with its own retention, not its source's", async () => {
    const deps = { ...h.deps, frames: ffmpegFrames(ffmpeg.path) };
    const source = await jobWith({ retentionDays: 1.5 });
    const ran = await pollToEnd(deps, await submit(deps, { jobId: source.id }));
    const downloaded = await download(deps, ran);
    expect((await finish(deps, downloaded)).status).toBe("succeeded");
    expect(tagsOf(source.id)).toEqual({
      [`outputs/${source.id}/video.mp4`]: "2",
      [`outputs/${source.id}/thumbnail.jpg`]: "2",
      [`outputs/${source.id}/spritesheet.jpg`]: "2",
      [`outputs/${source.id}/job.json`]: "2",
    });

    const follower = await jobWith({ retentionDays: 10, reuse: { id: source.id } });
    expect((await runFlow(h.deps, follower.id)).status).toBe("succeeded");
    const own = String(retentionTagDays(10));
    expect(own).not.toBe("2");
    expect(tagsOf(follower.id)).toEqual({
      [`outputs/${follower.id}/video.mp4`]: own,
      [`outputs/${follower.id}/job.json`]: own,
    });

    const kept = await jobWith({ reuse: { id: source.id } });
    expect((await runFlow(h.deps, kept.id)).status).toBe("succeeded");
    expect(tagsOf(kept.id)).toEqual({
      [`outputs/${kept.id}/video.mp4`]: undefined,
      [`outputs/${kept.id}/job.json`]: undefined,
    });
  });
});
