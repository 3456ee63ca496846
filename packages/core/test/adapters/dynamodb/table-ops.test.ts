/** The table's reads and writes every store uses, on dynalite (the real DynamoDB API). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { applied, isConditionFailure, Table } from "../../../src/adapters/dynamodb/table-ops.ts";
import { startLocalAws, type LocalAws } from "../../support/local-aws.ts";

let aws: LocalAws;
let table: Table;

beforeAll(async () => {
  aws = await startLocalAws();
  table = new Table(aws.ddb, aws.tableName);
});
afterAll(async () => {
  await aws?.stop();
});

/** The real client, its Query calls counted (a spy, not a stand-in). */
function countedTable(): { table: Table; queries: () => number } {
  let queries = 0;
  const db = {
    send: (command: { constructor: { name: string } }) => {
      if (command.constructor.name === "QueryCommand") queries++;
      return aws.ddb.send(command as Parameters<DynamoDBDocumentClient["send"]>[0]);
    },
  } as unknown as DynamoDBDocumentClient;
  return { table: new Table(db, aws.tableName), queries: () => queries };
}

/** `n` items in their own partition of the listing index, sort keys s00, s01, ... */
async function partitionOf(name: string, n: number): Promise<string[]> {
  const sortKeys = Array.from({ length: n }, (_, i) => `s${String(i).padStart(2, "0")}`);
  for (const sk of sortKeys) await table.put({ pk: `${name}-${sk}`, gsi1pk: name, gsi1sk: sk });
  return sortKeys;
}

describe("conditional writes", () => {
  it("conditionalUpdate is true when the condition holds and false when it does not", async () => {
    await table.put({ pk: "cond-update", version: 1 });
    const bump = (from: number) => ({
      update: "SET version = :next",
      condition: "version = :seen",
      values: { ":next": from + 1, ":seen": from },
    });
    expect(await table.conditionalUpdate("cond-update", bump(1))).toBe(true);
    expect(await table.conditionalUpdate("cond-update", bump(1))).toBe(false);
    expect((await table.get("cond-update", { consistent: true }))?.version).toBe(2);
  });

  it("conditionalPut is false for a taken key and leaves the first item as it was", async () => {
    expect(await table.conditionalPut({ pk: "cond-put", n: 1 }, "attribute_not_exists(pk)")).toBe(
      true,
    );
    expect(await table.conditionalPut({ pk: "cond-put", n: 2 }, "attribute_not_exists(pk)")).toBe(
      false,
    );
    expect((await table.get("cond-put", { consistent: true }))?.n).toBe(1);
  });

  it("conditionalDelete is false and keeps the item when the condition does not hold", async () => {
    await table.put({ pk: "cond-delete" });
    expect(await table.conditionalDelete("cond-delete", "attribute_exists(doneAt)")).toBe(false);
    expect(await table.get("cond-delete")).toBeDefined();
    await table.update("cond-delete", { update: "SET doneAt = :t", values: { ":t": "now" } });
    expect(await table.conditionalDelete("cond-delete", "attribute_exists(doneAt)")).toBe(true);
    expect(await table.get("cond-delete", { consistent: true })).toBeUndefined();
  });

  it("conditionalUpdateReturning answers the updated item, or undefined when refused", async () => {
    await table.put({ pk: "cond-returning", status: "queued" });
    const move = {
      update: "SET #s = :to",
      condition: "#s = :from",
      names: { "#s": "status" },
      values: { ":from": "queued", ":to": "running" },
    };
    expect(await table.conditionalUpdateReturning("cond-returning", move)).toEqual({
      pk: "cond-returning",
      status: "running",
    });
    expect(await table.conditionalUpdateReturning("cond-returning", move)).toBeUndefined();
  });

  it("throws every error that is not a refused condition", async () => {
    const invalid = { update: "SET = :broken", condition: "attribute_exists(pk)", values: {} };
    const error = await table.conditionalUpdate("cond-invalid", invalid).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(isConditionFailure(error)).toBe(false);
    expect((error as Error).name).toBe("ValidationException");
    await expect(applied(Promise.reject(new Error("connection reset")))).rejects.toThrow(
      "connection reset",
    );
  });
});

describe("queries of the listing index", () => {
  it("queryAll reads every page (pages of 2 over 7 items) in sort-key order", async () => {
    const sortKeys = await partitionOf("paged", 7);
    const counted = countedTable();
    const read: string[] = [];
    for await (const item of counted.table.queryAll({ partition: "paged", pageSize: 2 }))
      read.push(item.gsi1sk as string);
    expect(read).toEqual(sortKeys);
    // Pages of 2, 2, 2 and 1: the short last page has no LastEvaluatedKey.
    expect(counted.queries()).toBe(4);
  });

  it("queryAll stops reading when its caller stops iterating", async () => {
    await partitionOf("stopped", 6);
    const counted = countedTable();
    const read: string[] = [];
    for await (const item of counted.table.queryAll({ partition: "stopped", pageSize: 2 })) {
      read.push(item.gsi1sk as string);
      if (read.length === 3) break;
    }
    expect(read).toEqual(["s00", "s01", "s02"]);
    expect(counted.queries()).toBe(2);
  });

  it("queryPage answers where the next page starts, and queryAll goes on from there", async () => {
    await partitionOf("cursor", 5);
    const first = await table.queryPage({ partition: "cursor", descending: true, pageSize: 2 });
    expect(first.items.map((item) => item.gsi1sk)).toEqual(["s04", "s03"]);
    expect(first.next).toBeDefined();
    const rest: unknown[] = [];
    for await (const item of table.queryAll({ partition: "cursor", descending: true }, first.next))
      rest.push(item.gsi1sk);
    expect(rest).toEqual(["s02", "s01", "s00"]);
  });

  it("ranges and filters narrow the items, and count counts them over several pages", async () => {
    await partitionOf("ranged", 9);
    const between = { partition: "ranged", range: { between: ["s02", "s06"] } } as const;
    const read: unknown[] = [];
    for await (const item of table.queryAll(between)) read.push(item.gsi1sk);
    expect(read).toEqual(["s02", "s03", "s04", "s05", "s06"]);
    expect(await table.count({ ...between, pageSize: 2 })).toBe(5);
    expect(await table.count({ partition: "ranged", range: { op: "<", value: "s03" } })).toBe(3);
    const filtered = {
      partition: "ranged",
      filter: { expression: "#pk = :pk", names: { "#pk": "pk" }, values: { ":pk": "ranged-s07" } },
      pageSize: 2,
    };
    const found: unknown[] = [];
    for await (const item of table.queryAll(filtered)) found.push(item.pk);
    expect(found).toEqual(["ranged-s07"]);
  });
});
