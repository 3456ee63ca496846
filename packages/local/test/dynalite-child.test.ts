/**
 * dynalite runs in a child process of the stack. A stack killed with SIGKILL (no cleanup runs) must
 * take that child with it, and the next start on the same data dir must open the database (the
 * child's leveldb lock is gone) and find what was written before the kill.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { expect, it } from "vitest";
import { startStandins } from "../src/aws-standins.ts";
import { answers, goneWithin10s, standinsKilled } from "./fixtures/killed-standins.ts";

it("a SIGKILLed stack's dynalite child exits with it, and the next start reads the items written before the kill", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "reelay-dynalite-child-"));
  try {
    const { dynamoEndpoint } = await standinsKilled(dataDir, [], async ({ dynamoEndpoint }) => {
      expect(await answers(dynamoEndpoint)).toBe(true);
    });
    expect(await goneWithin10s(dynamoEndpoint)).toBe(true);

    const standins = await startStandins({ dataDir, s3Port: 0 });
    try {
      const read = await standins.ddb.send(
        new GetCommand({ TableName: standins.tableName, Key: { pk: "before-the-kill" } }),
      );
      expect(read.Item?.pk).toBe("before-the-kill");
    } finally {
      await standins.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}, 60_000);
