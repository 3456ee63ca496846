import { CreateTableCommand } from "@aws-sdk/client-dynamodb";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobsTableInput } from "../../src/jobs/schema.ts";
import { JobStore } from "../../src/jobs/store.ts";
import { DynamoDeadLetters, type DeadLetter } from "../../src/webhooks/dead-letter.ts";
import { startLocalAws, type LocalAws } from "../support/local-aws.ts";

let aws: LocalAws;
const tableName = `dead-letters-${process.pid}`;
beforeAll(async () => {
  aws = await startLocalAws();
  await aws.ddb.send(new CreateTableCommand(createJobsTableInput(tableName)));
});
afterAll(() => aws.stop());

const letter: DeadLetter = {
  webhookId: "vidtsk_01ARZ3NDEKTSV4RRFFQ69G5FAV.failed",
  url: "https://hooks.example.com/a",
  attempts: 5,
  lastError: "HTTP 500",
  failedAt: "2026-01-01T00:00:00.000Z",
  body: "{}",
};

describe("DynamoDeadLetters (AWS)", () => {
  it("writes one item per message and subscriber, a repeat overwrites it, and the job listing never shows it", async () => {
    const letters = new DynamoDeadLetters(aws.ddb, tableName);
    await letters.record(letter);
    await letters.record({ ...letter, attempts: 6 });
    await letters.record({ ...letter, url: "https://hooks.example.com/b" });
    const items = (await aws.ddb.send(new ScanCommand({ TableName: tableName }))).Items ?? [];
    expect(items).toHaveLength(2);
    expect(items.map((item) => item.attempts).sort()).toEqual([5, 6]);
    expect(
      items.every((item) => String(item.pk).startsWith(`webhook-dead#${letter.webhookId}#`)),
    ).toBe(true);
    expect((await new JobStore(aws.ddb, tableName).list()).jobs).toEqual([]);
  });
});
