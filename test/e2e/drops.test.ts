/**
 * Acceptance: prompt files put into `inbox/` with the AWS SDK (as a user would with any S3 tool)
 * become jobs; a bad one lands in `rejected/` with a readable error file; a repeat makes no second job.
 */
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  eventsFor,
  getJson,
  objectExists,
  objectText,
  startTestStack,
  waitFor,
  waitForTerminalJob,
  type TestStack,
  STACK_START_MS,
} from "./support/stack.ts";

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
}, STACK_START_MS);
afterAll(async () => {
  await stack?.dispose();
});

function drop(key: string, body: string, contentType = "text/plain") {
  return stack.s3.send(
    new PutObjectCommand({ Bucket: stack.bucket, Key: key, Body: body, ContentType: contentType }),
  );
}

async function jobsFromKey(key: string): Promise<any[]> {
  const { body } = await getJson(`${stack.url}/v1/jobs?limit=100`, stack.apiKey);
  return (body.data as any[]).filter((job) => job.source?.key === key);
}

describe("drops into inbox/ on the local stack", () => {
  it("a prompt file becomes a job from that file that succeeds, with one Generation Succeeded event", async () => {
    await drop("inbox/x.txt", "a paper boat in the rain\n");
    const [made] = await waitFor("a job from inbox/x.txt", async () => {
      const jobs = await jobsFromKey("inbox/x.txt");
      return jobs.length > 0 ? jobs : undefined;
    });
    expect(made.source).toMatchObject({ type: "drop", bucket: stack.bucket, key: "inbox/x.txt" });
    const job = await waitForTerminalJob(stack.url, stack.apiKey, made.id);
    expect(job.status).toBe("succeeded");
    expect(job.request).toMatchObject({ prompt: "a paper boat in the rain" });
    expect((await eventsFor(stack.dataDir, made.id)).map((event) => event["detail-type"])).toEqual([
      "Generation Succeeded",
    ]);
  });

  it("a bad file is moved to rejected/ beside a .error.json naming the bad field, and makes no job", async () => {
    await drop(
      "inbox/bad.json",
      JSON.stringify({ model: "gamma-3.1", prompt: "a kite", duration_sec: 5 }),
      "application/json",
    );
    const errorFile = await waitFor("rejected/bad.json.error.json", async () =>
      (await objectExists(stack.s3, stack.bucket, "rejected/bad.json.error.json"))
        ? objectText(stack.s3, stack.bucket, "rejected/bad.json.error.json")
        : undefined,
    );
    const report = JSON.parse(errorFile);
    expect(report.file).toBe("inbox/bad.json");
    expect(report.errors).toEqual([expect.objectContaining({ path: "duration_sec" })]);
    expect(report.message).toContain("duration_sec");
    expect(await objectExists(stack.s3, stack.bucket, "rejected/bad.json")).toBe(true);
    expect(await objectExists(stack.s3, stack.bucket, "inbox/bad.json")).toBe(false);
    expect(await jobsFromKey("inbox/bad.json")).toEqual([]);
  });

  it("the same file dropped twice makes one job and one upstream task", async () => {
    const text = "a lighthouse at dusk\n";
    await drop("inbox/twice.txt", text);
    const [first] = await waitFor("a job from inbox/twice.txt", async () => {
      const jobs = await jobsFromKey("inbox/twice.txt");
      return jobs.length > 0 ? jobs : undefined;
    });
    await drop("inbox/twice.txt", text);
    await waitFor("the second notification to be handled", async () =>
      stack.logLines.find(
        (line) =>
          line.startsWith("drop inbox/twice.txt") && line.includes(`${first.id} (already made)`),
      ),
    );
    const job = await waitForTerminalJob(stack.url, stack.apiKey, first.id);
    expect(job.status).toBe("succeeded");
    expect((await jobsFromKey("inbox/twice.txt")).map((j) => j.id)).toEqual([first.id]);
    expect(stack.simulator?.counters().tasksByKey[first.id]).toBe(1);
    expect(await eventsFor(stack.dataDir, first.id)).toHaveLength(1);
  });
});
