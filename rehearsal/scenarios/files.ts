/**
 * What a user does with files on the first day, through the rehearsed API and the bucket: a prompt
 * file dropped into inbox/ (a good one becomes a job, bad ones go to rejected/ with their reason),
 * an image edit sent as a multipart form, an upload given as a video's first frame, and a batch whose results file is read and every link in
 * it fetched. Each ends as it does on the local stack: same status, same error code, same objects.
 */
import { createHash } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";
import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import type { Stage } from "../stage.ts";
import {
  type Answer,
  api,
  endedJob,
  expectThat,
  type JsonBody,
  keysUnder,
  type Scenario,
  waitFor,
} from "./support.ts";

const VIDEO = { model: "gamma-3.1", duration_sec: 4 };

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** An object's bytes as the bucket's user reads them (through the gateway, as S3 answers). */
async function objectBytes(stage: Stage, key: string): Promise<Uint8Array> {
  const answer = await stage.userS3.send(new GetObjectCommand({ Bucket: stage.bucket, Key: key }));
  return (await answer.Body?.transformToByteArray()) ?? new Uint8Array();
}

async function exists(stage: Stage, key: string): Promise<boolean> {
  return (await keysUnder(stage, key)).includes(key);
}

function drop(stage: Stage, key: string, body: string) {
  return stage.userS3.send(
    new PutObjectCommand({
      Bucket: stage.bucket,
      Key: key,
      Body: body,
      ContentType: "application/json",
    }),
  );
}

/** The jobs the listing shows made from a dropped file. */
async function jobsFromDrop(stage: Stage, key: string): Promise<JsonBody[]> {
  const listed = await api(stage, "GET", "/v1/jobs?source=drop&limit=100");
  expectThat(listed.status === 200, `GET /v1/jobs answered ${listed.status}`);
  return (listed.body.data as JsonBody[]).filter((job) => job.source?.key === key);
}

const goodDrop: Scenario = {
  name: "a prompt file dropped into inbox/ becomes a drop job, found by GET /v1/jobs, that succeeds",
  async run(stage) {
    const key = "inbox/lighthouse.json";
    await drop(stage, key, JSON.stringify({ ...VIDEO, prompt: "a lighthouse in a storm" }));
    const [made] = await waitFor(`a job from ${key}`, async () => {
      const jobs = await jobsFromDrop(stage, key);
      return jobs.length > 0 ? jobs : undefined;
    });
    expectThat(made !== undefined, `no job from ${key}`);
    expectThat(
      made.source?.type === "drop" && made.source?.bucket === stage.bucket,
      `the job's source is ${JSON.stringify(made.source)}`,
    );
    const job = await endedJob(stage, String(made.id));
    expectThat(
      job.status === "succeeded",
      `job ${made.id} ended ${job.status}: ${JSON.stringify(job.error)}`,
    );
    expectThat(
      job.request?.prompt === "a lighthouse in a storm",
      `the job's prompt is ${JSON.stringify(job.request?.prompt)}`,
    );
    expectThat(
      await exists(stage, `outputs/${made.id}/video.mp4`),
      `outputs/${made.id}/video.mp4 is missing`,
    );
    expectThat((await jobsFromDrop(stage, key)).length === 1, `${key} made more than one job`);
  },
};

/** The error file a rejected drop lands beside, once the Drop function moved the file. */
async function rejection(stage: Stage, name: string): Promise<JsonBody> {
  // The move ends with the inbox's copy deleted, after the error file and the rejected copy.
  await waitFor(`inbox/${name} to be moved to rejected/`, async () =>
    (await exists(stage, `inbox/${name}`)) ? undefined : true,
  );
  const text = Buffer.from(await objectBytes(stage, `rejected/${name}.error.json`));
  return JSON.parse(text.toString("utf8")) as JsonBody;
}

/** One bad file: moved to rejected/ byte for byte, its error file naming code and path, no job. */
async function expectRejected(
  stage: Stage,
  name: string,
  body: string,
  expected: { code: string; path: string },
): Promise<void> {
  await drop(stage, `inbox/${name}`, body);
  const report = await rejection(stage, name);
  expectThat(report.file === `inbox/${name}`, `${name}.error.json names file ${report.file}`);
  const [first] = (report.errors ?? []) as JsonBody[];
  expectThat(
    first?.code === expected.code && first?.path === expected.path,
    `${name}.error.json: expected ${JSON.stringify(expected)}, got ${JSON.stringify(report.errors)}`,
  );
  const kept = Buffer.from(await objectBytes(stage, `rejected/${name}`)).toString("utf8");
  expectThat(kept === body, `rejected/${name} is not the dropped file: ${kept}`);
  const jobs = await jobsFromDrop(stage, `inbox/${name}`);
  expectThat(jobs.length === 0, `inbox/${name} made job(s) ${jobs.map((j) => j.id).join(", ")}`);
}

const badDrops: Scenario = {
  name: "bad prompt files (invalid JSON, a bad duration_sec) move to rejected/ with a .error.json naming invalid_json and duration_not_allowed at duration_sec, and make no job",
  async run(stage) {
    await expectRejected(stage, "broken.json", '{"model": "gamma-3.1", "prompt": ', {
      code: "invalid_json",
      path: "",
    });
    await expectRejected(
      stage,
      "five-seconds.json",
      JSON.stringify({ ...VIDEO, prompt: "a kite", duration_sec: 5 }),
      { code: "duration_not_allowed", path: "duration_sec" },
    );
  },
};

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid 8x8 RGB PNG in one colour: the API recognises an image by its bytes, not its name. */
function smallPng(): Buffer {
  const side = 8;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  // Each row: filter byte 0, then the pixels.
  const row = Buffer.concat([
    Buffer.from([0]),
    ...Array.from({ length: side }, () => Buffer.from([200, 80, 40])),
  ]);
  const pixels = Buffer.concat(Array.from({ length: side }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(pixels)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A multipart form POSTed to `path` with the stage's key. */
async function postForm(stage: Stage, path: string, form: FormData): Promise<Answer<JsonBody>> {
  const response = await fetch(`${stage.apiUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${stage.apiKey}` },
    body: form,
  });
  return {
    status: response.status,
    body: (await response.json()) as JsonBody,
    headers: response.headers,
  };
}

/** A link answers exactly the bytes of the stored object it names. */
async function expectLinkServes(stage: Stage, url: string, key: string): Promise<void> {
  const fetched = await fetch(url);
  const bytes = new Uint8Array(await fetched.arrayBuffer());
  expectThat(
    fetched.status === 200,
    `the link to ${key} answered ${fetched.status}: ${Buffer.from(bytes).toString("utf8").slice(0, 300)}`,
  );
  const stored = await objectBytes(stage, key);
  expectThat(
    sha256(bytes) === sha256(stored),
    `the link to ${key} answered ${bytes.length} bytes that are not the stored object's ${stored.length}`,
  );
}

/** The reference link the upstream was given, as it would fetch it when it makes the task. */
function referenceUrlSentUpstream(stage: Stage, job: JsonBody): string {
  const account = String(job.upstream?.account);
  const task = stage.sim.simulators[account]?.task(String(job.upstream?.task_id));
  const request = task?.request as JsonBody | undefined;
  const url = request?.image_config?.reference_images?.[0]?.url;
  expectThat(typeof url === "string", `account ${account}'s task has no reference image URL`);
  return url;
}

const imageEdit: Scenario = {
  name: "an image edit (multipart POST /v1/images/edits with a PNG) ends succeeded with its image under outputs/<id>/ and its upload's link serving the PNG",
  async run(stage) {
    const png = smallPng();
    const created = await postEdit(stage, png, "make the sky a sunset");
    expectThat(
      created.status === 200,
      `the edit answered ${created.status}: ${JSON.stringify(created.body)}`,
    );
    const id = String(created.body.task_id);
    const job = await endedJob(stage, id);
    expectThat(
      job.status === "succeeded",
      `job ${id} ended ${job.status}: ${JSON.stringify(job.error)}`,
    );
    const keys = await keysUnder(stage, `outputs/${id}/`);
    expectThat(
      keys.includes(`outputs/${id}/image-1.png`),
      `no outputs/${id}/image-1.png (found ${keys.join(", ")})`,
    );
    const [output] = job.outputs as JsonBody[];
    expectThat(output?.url !== null && output !== undefined, `job ${id} has no output link`);
    await expectLinkServes(stage, String(output.url), String(output.key));
    const upload = `uploads/${id}/ref-1-${sha256(png).slice(0, 16)}.png`;
    expectThat(await exists(stage, upload), `the upload ${upload} is missing`);
    await expectLinkServes(stage, referenceUrlSentUpstream(stage, job), upload);
  },
};

/** POST /v1/images/edits as OpenAI's clients send it: a multipart form with the image file. */
function postEdit(stage: Stage, image: Buffer, prompt: string): Promise<Answer<JsonBody>> {
  const form = new FormData();
  form.append("image", new Blob([new Uint8Array(image)], { type: "image/png" }), "photo.png");
  form.append("prompt", prompt);
  form.append("model", "deltaq2-image");
  return postForm(stage, "/v1/images/edits", form);
}

/** POST /v1/uploads with one PNG, as `reelay generate --first-frame` sends it. */
function postUpload(stage: Stage, image: Buffer): Promise<Answer<JsonBody>> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(image)], { type: "image/png" }), "photo.png");
  return postForm(stage, "/v1/uploads", form);
}

/**
 * A video made with `ref` as its first frame: the job keeps upload:// and succeeds, and the
 * upstream fetched upload `id` through a presigned link.
 */
async function expectFirstFrameUsed(stage: Stage, ref: string, id: string): Promise<void> {
  const created = await api(stage, "POST", "/v1/video/generations", {
    ...VIDEO,
    prompt: "the boat sails off",
    frame_images: [{ type: "image_url", frame_type: "first_frame", image_url: { url: ref } }],
  });
  expectThat(
    created.status === 200,
    `the create answered ${created.status}: ${JSON.stringify(created.body)}`,
  );
  const job = await endedJob(stage, String(created.body.task_id));
  expectThat(
    job.status === "succeeded",
    `job ${job.id} ended ${job.status}: ${JSON.stringify(job.error)}`,
  );
  const kept = job.request?.frame_images?.[0]?.image_url?.url;
  expectThat(kept === ref, `the job's first frame is ${JSON.stringify(kept)}, not ${ref}`);
  const simulator = stage.sim.simulators[String(job.upstream?.account)];
  const fetched = await waitFor(`the upstream's fetch of ${ref}`, async () =>
    simulator?.counters().materialFetches.find((f) => f.url.endsWith(`/uploads/${id}`)),
  );
  expectThat(
    fetched.signed && fetched.status === 200,
    `the upstream's fetch of the upload: ${JSON.stringify(fetched)}`,
  );
}

const uploadAsFirstFrame: Scenario = {
  name: "an upload (POST /v1/uploads) given as a video's first frame: the job keeps upload:// and succeeds, and the upstream fetched the upload through a presigned link",
  async run(stage) {
    const made = await postUpload(stage, smallPng());
    expectThat(
      made.status === 201,
      `POST /v1/uploads answered ${made.status}: ${JSON.stringify(made.body)}`,
    );
    await expectFirstFrameUsed(stage, String(made.body.url), String(made.body.id));
  },
};

const uploadByPut: Scenario = {
  name: "an upload by presigned PUT (POST /v1/uploads with JSON, PUT to the bucket, complete) given as a video's first frame: the staged bytes are gone, the job succeeds",
  async run(stage) {
    const png = smallPng();
    const made = await api(stage, "POST", "/v1/uploads", {
      content_type: "image/png",
      size: png.length,
      sha256: sha256(png),
    });
    expectThat(
      made.status === 201 && made.body.status === "pending",
      `POST /v1/uploads (JSON) answered ${made.status}: ${JSON.stringify(made.body)}`,
    );
    const id = String(made.body.id);
    const put = made.body.put as { url: string; headers: Record<string, string> };
    const stored = await fetch(put.url, { method: "PUT", headers: put.headers, body: png });
    expectThat(stored.ok, `the PUT to the presigned URL answered ${stored.status}`);
    const done = await api(stage, "POST", `/v1/uploads/${id}/complete`);
    expectThat(
      done.status === 200 && done.body.status === "ready" && done.body.sha256 === sha256(png),
      `complete answered ${done.status}: ${JSON.stringify(done.body)}`,
    );
    expectThat(
      !(await exists(stage, `uploads/${id}.staged`)),
      `the staged bytes of ${id} are still there`,
    );
    await expectFirstFrameUsed(stage, String(made.body.url), id);
  },
};

/** A batch once it completed and its results file was written. */
function completedBatch(stage: Stage, id: string): Promise<JsonBody> {
  return waitFor(`batch ${id} to complete`, async () => {
    const { status, body } = await api(stage, "GET", `/v1/batches/${id}`);
    return status === 200 && body.status === "completed" && body.results !== null
      ? body
      : undefined;
  });
}

function jsonLines(text: string): JsonBody[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as JsonBody);
}

/** Every line succeeded, and every link in it serves the bytes of the object it names. */
async function expectLinesServe(stage: Stage, where: string, lines: JsonBody[]): Promise<number> {
  let links = 0;
  for (const line of lines) {
    expectThat(
      line.status === "succeeded",
      `${where} line ${line.line} is ${line.status}: ${JSON.stringify(line.error)}`,
    );
    const outputs = line.outputs as JsonBody[];
    expectThat(outputs.length > 0, `${where} line ${line.line} has no outputs`);
    for (const output of outputs) {
      await expectLinkServes(stage, String(output.url), String(output.key));
      links++;
    }
  }
  return links;
}

const batchResults: Scenario = {
  name: "a batch of two videos and an image ends completed; every link of its results (the API's and outputs/batches/<id>/results.jsonl) serves the stored object's bytes",
  async run(stage) {
    const created = await api(stage, "POST", "/v1/batches", {
      requests: [
        { ...VIDEO, prompt: "a paper boat on a pond" },
        { ...VIDEO, prompt: "a paper boat in the rain" },
        {
          model: "deltaq2-image",
          messages: [{ role: "user", content: "a paper boat, watercolour" }],
          modalities: ["image", "text"],
        },
      ],
    });
    expectThat(
      created.status === 200,
      `POST /v1/batches answered ${created.status}: ${JSON.stringify(created.body)}`,
    );
    const id = String(created.body.id);
    const batch = await completedBatch(stage, id);
    expectThat(batch.counts?.succeeded === 3, `batch ${id} counts ${JSON.stringify(batch.counts)}`);
    const fromApi = await api<string>(stage, "GET", `/v1/batches/${id}/results`);
    expectThat(fromApi.status === 200, `GET results answered ${fromApi.status}`);
    // One line would parse as JSON: the helper answers the text only when it is not.
    const text = typeof fromApi.body === "string" ? fromApi.body : JSON.stringify(fromApi.body);
    const apiLines = jsonLines(text);
    const fileKey = `outputs/batches/${id}/results.jsonl`;
    expectThat(
      batch.results?.key === fileKey,
      `the batch names results ${JSON.stringify(batch.results)}`,
    );
    const fileLines = jsonLines(Buffer.from(await objectBytes(stage, fileKey)).toString("utf8"));
    for (const [where, lines] of [
      ["GET results", apiLines],
      [fileKey, fileLines],
    ] as const) {
      expectThat(lines.length === 3, `${where} has ${lines.length} lines, not 3`);
      const links = await expectLinesServe(stage, where, lines);
      expectThat(links >= 3, `${where} has ${links} links, not one per line at least`);
    }
  },
};

export const FILE_SCENARIOS: Scenario[] = [
  goodDrop,
  badDrops,
  imageEdit,
  uploadAsFirstFrame,
  uploadByPut,
  batchResults,
];
