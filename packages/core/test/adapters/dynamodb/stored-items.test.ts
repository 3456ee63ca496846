/**
 * Items are checked where they are read: a malformed one fails in its store with internal_error,
 * naming the item's id and the field, and never a value of the item (an item may hold a secret).
 */
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyStore, hashApiKey } from "../../../src/adapters/dynamodb/api-key-table.ts";
import { apiKeyKey } from "../../../src/adapters/dynamodb/item-keys.ts";
import { JobStore } from "../../../src/adapters/dynamodb/job-table.ts";
import { startLocalAws, type LocalAws } from "../../support/local-aws.ts";
import { caught } from "../upstream/rejection.ts";

let aws: LocalAws;

beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

function put(item: Record<string, unknown>) {
  return aws.ddb.send(new PutCommand({ TableName: aws.tableName, Item: item }));
}

describe("stored items", () => {
  it("a job item with a status reelay does not know fails its read with internal_error at `status`, naming the job", async () => {
    const id = "vidtsk_01ARZ3NDEKTSV4RRFFQ69G5FAV";
    const at = "2026-01-01T00:00:00.000Z";
    await put({
      pk: id,
      id,
      kind: "video",
      status: "half-done",
      model: "gamma-3.1",
      request: {},
      source: { type: "api" },
      createdAt: at,
      updatedAt: at,
      history: [],
    });
    const error = await caught(new JobStore(aws.ddb, aws.tableName).get(id));
    expect(error.code).toBe("internal_error");
    expect(error.path).toBe("status");
    expect(error.message).toContain(id);
    expect(error.message).not.toContain("half-done");
  });

  it("an API key item without its name fails the key's lookup at `name`, and the message holds no secret of the item", async () => {
    const key = "rk_malformed-item-test";
    const secret = "whsec_never-shown";
    await put({
      pk: apiKeyKey(hashApiKey(key)),
      id: "key_01ARZ3NDEKTSV4RRFFQ69G5FAV",
      hint: "rk_malf",
      createdAt: "2026-01-01T00:00:00.000Z",
      webhookSecrets: [{ secret }],
    });
    const error = await caught(new ApiKeyStore(aws.ddb, aws.tableName).verify(key));
    expect(error.code).toBe("internal_error");
    expect(error.path).toBe("name");
    expect(error.message).not.toContain(secret);
    expect(error.message).not.toContain(hashApiKey(key));
  });
});
