/**
 * Fuzzing the inbox on the local stack (real s3rver, its in-process notifications and the drop
 * routing): random files put into inbox/ with the AWS SDK each end as job(s) from that key, or moved
 * to rejected/ beside a readable `.error.json`, or both (some bad lines); none is left unhandled in
 * inbox/, and the stack still takes drops and answers afterwards.
 *
 * Accepted prompt files stay in inbox/ (the record of the drop, rescanned on restart without making
 * a second job); material (.png, .mp4, ...) is left alone for prompt files to reference, as the
 * docs/local.md documents, and so are folder markers (`inbox/batch/`). The seed is printed;
 * REELAY_FUZZ_SEED replays a run.
 */
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  getJson,
  objectExists,
  objectText,
  startTestStack,
  waitFor,
  waitForTerminalJob,
  type TestStack,
} from "../e2e/support/stack.ts";
import { FUZZ_SEED, runs } from "./support/arbitraries.ts";
import { dropFile, isLeftAlone, type DropFile } from "./support/drop-files.ts";

let stack: TestStack;
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

beforeAll(async () => {
  process.on("unhandledRejection", onRejection);
  console.log(`inbox fuzz seed ${FUZZ_SEED} (replay: REELAY_FUZZ_SEED=${FUZZ_SEED})`);
  stack = await startTestStack();
}, 60_000);

afterAll(async () => {
  process.off("unhandledRejection", onRejection);
  await stack?.dispose();
});

async function keysUnder(prefix: string): Promise<Set<string>> {
  const keys = new Set<string>();
  let token: string | undefined;
  do {
    const page = await stack.s3.send(
      new ListObjectsV2Command({
        Bucket: stack.bucket,
        Prefix: prefix,
        ...(token === undefined ? {} : { ContinuationToken: token }),
      }),
    );
    for (const object of page.Contents ?? []) if (object.Key !== undefined) keys.add(object.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
  return keys;
}

async function objectBytes(key: string): Promise<Buffer> {
  const answer = await stack.s3.send(new GetObjectCommand({ Bucket: stack.bucket, Key: key }));
  return Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
}

/** Every drop job's id, grouped by the key it came from. */
async function dropJobsByKey(): Promise<Map<string, string[]>> {
  const byKey = new Map<string, string[]>();
  let cursor: string | null = null;
  do {
    const query: string = `source=drop&limit=100${cursor === null ? "" : `&cursor=${cursor}`}`;
    const { body } = await getJson(`${stack.url}/v1/jobs?${query}`, stack.apiKey);
    for (const job of body.data as { id: string; source: { key: string } }[])
      byKey.set(job.source.key, [...(byKey.get(job.source.key) ?? []), job.id]);
    cursor = body.next_cursor;
  } while (cursor !== null);
  return byKey;
}

/** The router logs one line per handled drop: `drop <key>: <status>...` or `drop <key> could not be handled ...`. */
function handledLine(key: string): string | undefined {
  return stack.logLines.find(
    (line) =>
      line.startsWith(`drop ${key}: `) || line.startsWith(`drop ${key} could not be handled`),
  );
}

const describeFile = (file: DropFile, key: string) =>
  `${JSON.stringify(key)} (${file.kind}, ${file.body.length} bytes; seed ${FUZZ_SEED})`;

describe("fuzzing inbox/ on the local stack", () => {
  it("every random file ends as job(s) or in rejected/ with its error report; none is left unhandled in inbox/", async () => {
    const count = runs(36);
    const [generated] = fc.sample(fc.array(dropFile, { minLength: count, maxLength: count }), {
      seed: FUZZ_SEED,
      numRuns: 1,
    });
    // Unique keys, and one file past the 10 MiB drop limit every run.
    const files: DropFile[] = [
      ...generated!,
      { kind: "over 10 MiB", name: "big.jsonl", body: Buffer.alloc(10 * 1024 * 1024 + 1, 0x61) },
    ].map((file, i) => ({ ...file, name: `f${i}-${file.name}` }));
    const keyOf = (file: DropFile) => `inbox/${file.name}`;

    await Promise.all(
      files.map((file) =>
        stack.s3.send(
          new PutObjectCommand({ Bucket: stack.bucket, Key: keyOf(file), Body: file.body }),
        ),
      ),
    );
    const inboxAfterPut = await keysUnder("inbox/");
    for (const file of files)
      expect(
        inboxAfterPut.has(keyOf(file)) || !isLeftAlone(file.name),
        `${describeFile(file, keyOf(file))} was stored under its key`,
      ).toBe(true);

    const prompts = files.filter((file) => !isLeftAlone(file.name));
    const unhandled = () => prompts.filter((file) => handledLine(keyOf(file)) === undefined);
    await waitFor(
      "every prompt file to be handled",
      async () => (unhandled().length === 0 ? true : undefined),
      60_000,
      200,
    ).catch(() => {
      throw new Error(
        `never handled: ${unhandled()
          .map((file) => describeFile(file, keyOf(file)))
          .join(", ")}`,
      );
    });

    const inbox = await keysUnder("inbox/");
    const rejected = await keysUnder("rejected/");
    const jobs = await dropJobsByKey();
    const tally = { material: 0, jobs: 0, rejected: 0, partly: 0 };
    for (const file of files) {
      const key = keyOf(file);
      const what = describeFile(file, key);
      const made = jobs.get(key) ?? [];
      if (isLeftAlone(file.name)) {
        expect(inbox.has(key), `${what}: material and folder markers stay in inbox/`).toBe(true);
        expect(made, `${what}: material and folder markers make no job`).toEqual([]);
        expect(
          rejected.has(`rejected/${file.name}.error.json`),
          `${what}: and are not rejected`,
        ).toBe(false);
        tally.material += 1;
        continue;
      }
      expect(handledLine(key), what).not.toMatch(/could not be handled/);
      const reportKey = `rejected/${file.name}.error.json`;
      if (!rejected.has(reportKey)) {
        expect(
          made.length,
          `${what}: not rejected, so it made a job (${handledLine(key)})`,
        ).toBeGreaterThan(0);
        tally.jobs += 1;
        continue;
      }
      const report = JSON.parse(await objectText(stack.s3, stack.bucket, reportKey));
      expect(inbox.has(key), `${what}: a rejected file leaves inbox/`).toBe(false);
      expect(report.file, what).toBe(key);
      expect(report.errors.length, what).toBeGreaterThan(0);
      expect(typeof report.message === "string" && report.message !== "", what).toBe(true);
      for (const error of report.errors)
        expect(error.code, what).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      // A partly bad file names the jobs its good lines made, and those are exactly the jobs from it.
      expect(report.accepted_jobs.map((job: { id: string }) => job.id).sort(), what).toEqual(
        [...made].sort(),
      );
      expect(
        rejected.has(`rejected/${file.name}`),
        `${what}: the file itself is kept in rejected/`,
      ).toBe(true);
      expect(
        (await objectBytes(`rejected/${file.name}`)).equals(file.body),
        `${what}: kept byte for byte`,
      ).toBe(true);
      if (made.length > 0) tally.partly += 1;
      else tally.rejected += 1;
    }
    console.log(
      `inbox fuzz: ${files.length} files -> ${tally.jobs} made jobs, ${tally.rejected} rejected, ${tally.partly} partly rejected, ${tally.material} material or folder markers left alone`,
    );
  }, 120_000);

  it("afterwards the stack still takes a drop to a succeeded job and answers /healthz, with no unhandled rejection", async () => {
    await stack.s3.send(
      new PutObjectCommand({
        Bucket: stack.bucket,
        Key: "inbox/after-fuzz.txt",
        Body: "a paper boat after the storm",
      }),
    );
    const [id] = await waitFor("a job from inbox/after-fuzz.txt", async () =>
      (await dropJobsByKey()).get("inbox/after-fuzz.txt"),
    );
    expect((await waitForTerminalJob(stack.url, stack.apiKey, id!)).status).toBe("succeeded");
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    expect(await objectExists(stack.s3, stack.bucket, "inbox/after-fuzz.txt")).toBe(true);
    expect(rejections).toEqual([]);
  }, 60_000);
});
