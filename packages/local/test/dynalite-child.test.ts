/**
 * dynalite runs in a child process of the stack. A stack killed with SIGKILL (no cleanup runs) must
 * take that child with it, and the next start on the same data dir must open the database (the
 * child's leveldb lock is gone) and find what was written before the kill.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { expect, it } from "vitest";
import { startStandins } from "../src/aws-standins.ts";

const FIXTURE = fileURLToPath(new URL("./fixtures/standins-child.ts", import.meta.url));

async function answers(endpoint: string): Promise<boolean> {
  return (await fetch(endpoint).catch(() => undefined)) !== undefined;
}

it("a SIGKILLed stack's dynalite child exits with it, and the next start reads the items written before the kill", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "reelay-dynalite-child-"));
  try {
    const stack = spawn(process.execPath, ["--import", "tsx", FIXTURE, dataDir], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<void>((resolve) => stack.once("exit", () => resolve()));
    const { dynamoEndpoint } = await new Promise<{ dynamoEndpoint: string }>((resolve, reject) => {
      stack.once("exit", (code) => reject(new Error(`the stand-ins exited ${code} before they were up`)));
      stack.stdout.setEncoding("utf8").once("data", (line: string) => resolve(JSON.parse(line) as { dynamoEndpoint: string }));
    });
    expect(await answers(dynamoEndpoint)).toBe(true);

    stack.kill("SIGKILL");
    await exited;
    const deadline = Date.now() + 10_000;
    while ((await answers(dynamoEndpoint)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await answers(dynamoEndpoint)).toBe(false);

    const standins = await startStandins({ dataDir, s3Port: 0 });
    try {
      const read = await standins.ddb.send(new GetCommand({ TableName: standins.tableName, Key: { pk: "before-the-kill" } }));
      expect(read.Item?.pk).toBe("before-the-kill");
    } finally {
      await standins.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}, 60_000);
