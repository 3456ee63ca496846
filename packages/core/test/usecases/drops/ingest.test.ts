/**
 * Drops against real dynalite and s3rver. The starter records what it was asked to start: it stands
 * in for the state machine, which has its own tests.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ingestDrop, MAX_DROP_BYTES, type DropDeps } from "../../../src/usecases/drops/ingest.ts";
import { JobStore } from "../../../src/adapters/dynamodb/job-table.ts";
import { KeyLimitsStore } from "../../../src/adapters/dynamodb/key-limits-table.ts";
import { kindedRequest } from "../../../src/domain/jobs/request.ts";
import type { Job } from "../../../src/domain/jobs/types.ts";
import { ObjectStore } from "../../../src/adapters/s3/object-store.ts";
import { startLocalAws, type LocalAws } from "../../support/local-aws.ts";
import type { SubmitDeps } from "../../../src/usecases/jobs/submit-job.ts";
import { UNWATCHED } from "../../support/unwatched.ts";
import type { JobQueue } from "../../../src/usecases/ports.ts";

let aws: LocalAws;
let deps: DropDeps;
let jobs: JobStore;
let started: string[];

beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(async () => aws?.stop());
beforeEach(() => {
  started = [];
  jobs = new JobStore(aws.ddb, aws.tableName);
  deps = {
    objects: new ObjectStore(aws.s3, aws.bucket),
    submit: submitDeps({ start: async (job: Job) => void started.push(job.id) }),
    defaultModel: "gamma-3.1",
  };
});

/** No budgets and no events here: a drop's job reserves at admission, and only the API fails a job start_failed. */
function submitDeps(starter: JobQueue): SubmitDeps {
  return {
    jobs,
    ...UNWATCHED,
    events: { emit: async () => undefined },
    now: () => new Date(),
    starter,
  };
}

const put = (key: string, text: string, contentType = "application/json") =>
  deps.objects.put(key, text, { contentType });
async function readJson(key: string): Promise<Record<string, unknown>> {
  const { body } = await deps.objects.getStream(key);
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
}

describe("S3 drops", () => {
  it("a .txt prompt becomes one queued job for the default model and is started", async () => {
    await put("inbox/boat.txt", "a paper boat in the rain\n", "text/plain");
    const outcome = await ingestDrop(deps, "inbox/boat.txt");
    expect(outcome).toMatchObject({ status: "accepted", errors: [], jobs: [{ created: true }] });
    const job = await jobs.require(outcome.jobs[0]!.id);
    expect(job).toMatchObject({
      status: "queued",
      model: "gamma-3.1",
      source: { type: "drop", key: "inbox/boat.txt" },
    });
    expect(job.request).toMatchObject({ prompt: "a paper boat in the rain", duration_sec: 8 });
    expect(started).toEqual([job.id]);
  });

  it("the same object notified twice, and the same file dropped again, make one job", async () => {
    const text = JSON.stringify({ model: "os-2", prompt: "a lighthouse", duration_sec: 8 });
    await put("inbox/light.json", text);
    const first = await ingestDrop(deps, "inbox/light.json");
    const again = await ingestDrop(deps, "inbox/light.json");
    await put("inbox/light.json", text);
    const dropped = await ingestDrop(deps, "inbox/light.json");
    expect(first.jobs[0]!.created).toBe(true);
    expect(again.jobs.map((j) => j.id)).toEqual(first.jobs.map((j) => j.id));
    expect(dropped.jobs.map((j) => j.id)).toEqual(first.jobs.map((j) => j.id));
    const page = await jobs.list({ limit: 100 });
    expect(page.jobs.filter((job) => job.source.key === "inbox/light.json")).toHaveLength(1);
  });

  it("a .jsonl with a bad line: good lines become jobs, the file goes to rejected/ with an error file naming the line and field", async () => {
    const lines = [
      JSON.stringify({ model: "os-2", prompt: "one", duration_sec: 4 }),
      JSON.stringify({ model: "gamma-3.1", prompt: "two", duration_sec: 5 }),
      "{broken",
    ].join("\n");
    await put("inbox/batch.jsonl", lines);
    const outcome = await ingestDrop(deps, "inbox/batch.jsonl");
    expect(outcome.status).toBe("partly_rejected");
    expect(outcome.jobs).toHaveLength(1);
    expect(outcome.rejectedKey).toBe("rejected/batch.jsonl");
    const report = await readJson("rejected/batch.jsonl.error.json");
    expect(report.file).toBe("inbox/batch.jsonl");
    expect(report.errors).toEqual([
      expect.objectContaining({
        line: 2,
        path: "duration_sec",
        code: "duration_not_allowed",
        where: "line 2: duration_sec",
      }),
      expect.objectContaining({ line: 3, code: "invalid_json", where: "line 3" }),
    ]);
    expect(String(report.message)).toContain("line 2, duration_sec");
    expect(await deps.objects.head("rejected/batch.jsonl")).toBeDefined();
    expect(await deps.objects.head("inbox/batch.jsonl")).toBeUndefined();
  });

  it("a drop past the deployment's max_queued (REELAY_KEY_LIMITS deployment) lands in rejected/ with queue_full, no job made", async () => {
    const keyLimits = new KeyLimitsStore(aws.ddb, aws.tableName, {
      defaults: { keys: {}, deployment: { max_queued: 1 } },
    });
    const limited = { ...deps, submit: { ...deps.submit, keyLimits } };
    await put("inbox/first-in.txt", "a first boat\n", "text/plain");
    expect((await ingestDrop(limited, "inbox/first-in.txt")).status).toBe("accepted");
    await put("inbox/one-too-many.txt", "a second boat\n", "text/plain");
    const outcome = await ingestDrop(limited, "inbox/one-too-many.txt");
    expect(outcome).toMatchObject({ status: "rejected", jobs: [] });
    expect((await readJson("rejected/one-too-many.txt.error.json")).errors).toEqual([
      expect.objectContaining({ code: "queue_full" }),
    ]);
    const page = await jobs.list({ limit: 100 });
    expect(page.jobs.filter((job) => job.source.key === "inbox/one-too-many.txt")).toEqual([]);
  });

  it("an unsupported file is rejected whole and nothing is started", async () => {
    await put("inbox/notes.bin", "\u0000\u0001garbage", "application/octet-stream");
    const outcome = await ingestDrop(deps, "inbox/notes.bin");
    expect(outcome).toMatchObject({ status: "rejected", jobs: [] });
    expect((await readJson("rejected/notes.bin.error.json")).errors).toEqual([
      expect.objectContaining({ code: "unsupported_drop_file" }),
    ]);
    expect(started).toEqual([]);
  });

  // Found by the inbox fuzz (test/fuzz): a file over the size limit was deleted from inbox/ and not
  // kept in rejected/, and a binary one was kept as its UTF-8 decoding, not its bytes.
  it("a rejected file is kept in rejected/ byte for byte: binary, empty, and one over MAX_DROP_BYTES", async () => {
    const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0xc3]);
    const big = Buffer.alloc(MAX_DROP_BYTES + 1, 0x61);
    for (const [name, bytes, code] of [
      ["bin.json", binary, "invalid_json"],
      ["empty.json", Buffer.alloc(0), "invalid_json"],
      ["big.jsonl", big, "drop_file_too_large"],
    ] as const) {
      await deps.objects.put(`inbox/${name}`, bytes, { contentType: "application/octet-stream" });
      const outcome = await ingestDrop(deps, `inbox/${name}`);
      expect(
        outcome.errors.map((error) => error.code),
        name,
      ).toEqual([code]);
      const { body, bytes: size } = await deps.objects.getStream(`rejected/${name}`);
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      expect(size, name).toBe(bytes.length);
      expect(Buffer.concat(chunks).equals(bytes), name).toBe(true);
      expect(await deps.objects.head(`inbox/${name}`), name).toBeUndefined();
    }
  });

  it("a request nested far too deep is rejected at its line, not left in inbox/ by a stack overflow", async () => {
    const deep = `{"model":"gamma-3.1","prompt":"x","provider":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
    await put("inbox/deep.jsonl", `{"model":"gamma-3.1","prompt":"fine"}\n${deep}`);
    const outcome = await ingestDrop(deps, "inbox/deep.jsonl");
    expect(outcome.status).toBe("partly_rejected");
    expect(outcome.errors).toEqual([
      expect.objectContaining({ line: 2, code: "nesting_too_deep" }),
    ]);
  });

  it("material named by bare file name is passed upstream as a presigned URL of the object beside the prompt", async () => {
    await deps.objects.put("inbox/shots/first.png", new Uint8Array([137, 80, 78, 71]), {
      contentType: "image/png",
    });
    await put(
      "inbox/shots/go.json",
      JSON.stringify({
        model: "epsilon-2.3",
        prompt: "zoom out",
        duration_sec: 6,
        frame_images: [
          { type: "image_url", frame_type: "first_frame", image_url: { url: "first.png" } },
        ],
      }),
    );
    const outcome = await ingestDrop(deps, "inbox/shots/go.json");
    expect(outcome.status).toBe("accepted");
    const job = await jobs.require(outcome.jobs[0]!.id);
    const typed = kindedRequest(job.request);
    if (typed.kind !== "video") throw new Error(`a video drop was recorded as ${typed.kind}`);
    const url = typed.request.frame_images?.[0]?.image_url.url ?? "";
    expect(url).toContain("/inbox/shots/first.png");
    expect(url).toContain("X-Amz-Signature=");
    const fetched = await fetch(url);
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(Buffer.from([137, 80, 78, 71]));
  });

  it("material that was not uploaded is a material_not_found error at its field path", async () => {
    await put(
      "inbox/lost.json",
      JSON.stringify({
        model: "epsilon-2.3",
        prompt: "p",
        duration_sec: 6,
        frame_images: [
          { type: "image_url", frame_type: "first_frame", image_url: { url: "nowhere.png" } },
        ],
      }),
    );
    const outcome = await ingestDrop(deps, "inbox/lost.json");
    expect(outcome.status).toBe("rejected");
    expect(outcome.errors).toEqual([
      expect.objectContaining({
        code: "material_not_found",
        path: "frame_images[0].image_url.url",
      }),
    ]);
  });

  it("material files themselves, objects outside inbox/ and vanished objects are ignored", async () => {
    await deps.objects.put("inbox/pic.jpg", new Uint8Array([1]), { contentType: "image/jpeg" });
    expect((await ingestDrop(deps, "inbox/pic.jpg")).status).toBe("ignored");
    expect((await ingestDrop(deps, "outputs/x/job.json")).status).toBe("ignored");
    expect((await ingestDrop(deps, "inbox/gone.json")).status).toBe("ignored");
    expect(started).toEqual([]);
  });

  // Seen while fuzzing inbox/ (test/fuzz): the empty "folder" object an S3 console makes for
  // inbox/batch/ was rejected as an unsupported file, with an error report for a file nobody dropped.
  it("a folder marker (a key ending in /) is ignored and left alone", async () => {
    await deps.objects.put("inbox/batch/", new Uint8Array(0), {
      contentType: "application/x-directory",
    });
    expect(await ingestDrop(deps, "inbox/batch/")).toMatchObject({ status: "ignored", errors: [] });
    expect(await deps.objects.head("inbox/batch/")).toBeDefined();
    expect(await deps.objects.head("rejected/batch/.error.json")).toBeUndefined();
  });

  it("a job created but never started (crash between) is started when the object is notified again", async () => {
    await put("inbox/crash.txt", "a crane at dawn", "text/plain");
    const failing: DropDeps = {
      ...deps,
      submit: submitDeps({
        start: async () => {
          throw new Error("crashed");
        },
      }),
    };
    await expect(ingestDrop(failing, "inbox/crash.txt")).rejects.toThrow("crashed");
    const outcome = await ingestDrop(deps, "inbox/crash.txt");
    expect(outcome.jobs[0]!.created).toBe(false);
    expect(started).toEqual([outcome.jobs[0]!.id]);
  });
});
