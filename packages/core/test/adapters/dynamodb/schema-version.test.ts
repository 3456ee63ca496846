/**
 * The schema version on every item (domain/schema-version.ts), written and checked by the table's
 * one set of reads and writes, on dynalite. Items are looked at raw (GetCommand) to see what is
 * stored, and written raw to stand for 0.1.0's items (no version) and a newer release's.
 */
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { Table } from "../../../src/adapters/dynamodb/table-ops.ts";
import { SCHEMA_VERSION } from "../../../src/domain/schema-version.ts";
import { sharedLocalAws } from "../../support/shared-local-aws.ts";

const localAws = sharedLocalAws();
const table = () => new Table(localAws().ddb, localAws().tableName);

async function raw(pk: string) {
  return (
    await localAws().ddb.send(new GetCommand({ TableName: localAws().tableName, Key: { pk } }))
  ).Item;
}

async function putRaw(item: Record<string, unknown>) {
  await localAws().ddb.send(new PutCommand({ TableName: localAws().tableName, Item: item }));
}

describe("writes carry the schema version", () => {
  it("a put stores schemaVersion, and the item read back does not show it", async () => {
    await table().put({ pk: "sv-put", name: "a", gsi1pk: "SV", gsi1sk: "1" });
    expect((await raw("sv-put"))?.schemaVersion).toBe(SCHEMA_VERSION);
    expect(await table().get("sv-put")).toEqual({
      pk: "sv-put",
      name: "a",
      gsi1pk: "SV",
      gsi1sk: "1",
    });
    const page = await table().queryPage({ partition: "SV" });
    expect(page.items).toEqual([{ pk: "sv-put", name: "a", gsi1pk: "SV", gsi1sk: "1" }]);
  });

  it("an update that makes an item (ADD) stamps it; one with SET after ADD too", async () => {
    await table().update("sv-add", { update: "ADD n :one", values: { ":one": 1 } });
    await table().update("sv-add2", {
      update: "ADD n :one SET updatedAt = :at",
      values: { ":one": 1, ":at": "now" },
    });
    expect(await raw("sv-add")).toEqual({ pk: "sv-add", n: 1, schemaVersion: SCHEMA_VERSION });
    expect(await raw("sv-add2")).toEqual({
      pk: "sv-add2",
      n: 1,
      updatedAt: "now",
      schemaVersion: SCHEMA_VERSION,
    });
  });

  it("an update of a version-1 item (0.1.0's, no version) stamps it current; a REMOVE-only update leaves it", async () => {
    await putRaw({ pk: "sv-v1", a: 1, b: 2 });
    await table().update("sv-v1", { update: "REMOVE b" });
    expect(await raw("sv-v1")).toEqual({ pk: "sv-v1", a: 1 });
    expect(await table().get("sv-v1")).toEqual({ pk: "sv-v1", a: 1 });
    const after = await table().updateReturning("sv-v1", {
      update: "SET a = :a",
      values: { ":a": 5 },
    });
    expect(after).toEqual({ pk: "sv-v1", a: 5 });
    expect((await raw("sv-v1"))?.schemaVersion).toBe(SCHEMA_VERSION);
  });
});

describe("reads refuse a version this release does not read", () => {
  const newer = SCHEMA_VERSION + 1;

  it("get, getMany, queryPage and updateReturning refuse a newer item with schema_version_unsupported, naming the item and the attribute", async () => {
    await putRaw({ pk: "sv-newer", gsi1pk: "SVN", gsi1sk: "1", schemaVersion: newer, a: 1 });
    const refusal = {
      name: "ReelayError",
      code: "schema_version_unsupported",
      path: "schemaVersion",
      message: expect.stringContaining(`"sv-newer" has schema version ${newer}`),
    };
    await expect(table().get("sv-newer")).rejects.toMatchObject(refusal);
    await expect(table().getMany(["sv-newer"])).rejects.toMatchObject(refusal);
    await expect(table().queryPage({ partition: "SVN" })).rejects.toMatchObject(refusal);
    await expect(
      table().updateReturning("sv-newer", { update: "SET a = :a", values: { ":a": 2 } }),
    ).rejects.toMatchObject(refusal);
  });

  it("an update never lowers a newer item's version", async () => {
    await putRaw({ pk: "sv-keep", schemaVersion: newer, a: 1 });
    await table().update("sv-keep", { update: "SET a = :a", values: { ":a": 2 } });
    expect(await raw("sv-keep")).toEqual({ pk: "sv-keep", schemaVersion: newer, a: 2 });
  });

  it.each([0, "2", 1.5, -1])("a version of %j is refused too", async (version) => {
    await putRaw({ pk: "sv-odd", schemaVersion: version });
    await expect(table().get("sv-odd")).rejects.toMatchObject({
      code: "schema_version_unsupported",
    });
  });
});
