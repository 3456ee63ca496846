/**
 * A prompt file stored in inbox/ whose notification was never handled (the process died between
 * s3rver storing it and the drop handler running) still becomes a job on the next start.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "@reelay/core/wiring";
import { startStandins } from "../src/aws-standins.ts";
import { startLocalStack, type LocalStack } from "../src/stack.ts";

let dataDir: string | undefined;
let stack: LocalStack | undefined;
afterAll(async () => {
  await stack?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("the inbox rescan at start", () => {
  // Three starts (the stand-ins, the stack twice): more than the default 30 s on a busy machine.
  it("a file left unhandled in inbox/ becomes one job; a second start makes no second job from it", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "reelay-rescan-"));
    // Only S3 and DynamoDB run here: nobody listens for the notification.
    const standins = await startStandins({ dataDir });
    await standins.s3.send(
      new PutObjectCommand({
        Bucket: standins.bucket,
        Key: "inbox/late.txt",
        Body: "a paper boat in the rain\n",
      }),
    );
    await standins.close();

    const config = { ...loadConfig({ REELAY_DATA_DIR: dataDir }), port: 0 };
    const listJobs = async (s: LocalStack) => {
      const response = await fetch(`${s.url}/v1/jobs`, {
        headers: { authorization: `Bearer ${s.apiKey}` },
      });
      return (
        (await response.json()) as { data: { id: string; source: { key?: string } }[] }
      ).data.filter((job) => job.source.key === "inbox/late.txt");
    };
    stack = await startLocalStack({
      config,
      quiet: true,
      s3Port: 0,
      previews: false,
      s3InChild: false,
      simulator: { timeScale: 0.05 },
    });
    let jobs = await listJobs(stack);
    // Bounded by time, not by looks: a loaded machine makes each look slower.
    for (const end = Date.now() + 20_000; jobs.length === 0 && Date.now() < end; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      jobs = await listJobs(stack);
    }
    expect(jobs).toHaveLength(1);
    await stack.stop();

    stack = await startLocalStack({
      config,
      quiet: true,
      s3Port: 0,
      previews: false,
      s3InChild: false,
      simulator: { timeScale: 0.05 },
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await listJobs(stack)).map((job) => job.id)).toEqual(jobs.map((job) => job.id));
  }, 60_000);
});
