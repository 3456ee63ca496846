/**
 * dynalite writes an item's index entries and then the item, as separate writes. A process killed
 * between the two leaves the index ahead of the table: an entry no item backs (a job created, then
 * made again by the caller's retry with a new createdAt, so listed twice), or one that shows a
 * status the item never reached. DynamoDB's indexes always converge; dynalite's never do. So at
 * start, before anything reads the table, every index entry is checked against the items and put
 * right through the API (dynalite removes an index entry only when the item it belonged to is
 * overwritten or deleted). Without it a job can be listed both succeeded and queued.
 */
import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import {
  DeleteCommand,
  PutCommand,
  ScanCommand,
  type DynamoDBDocumentClient,
} from "@aws-sdk/lib-dynamodb";

type Item = Record<string, unknown>;

async function scanAll(
  ddb: DynamoDBDocumentClient,
  input: { TableName: string; IndexName?: string },
): Promise<Item[]> {
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await ddb.send(
      new ScanCommand({ ...input, ...(start === undefined ? {} : { ExclusiveStartKey: start }) }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return items;
}

/** JSON with object keys sorted, so two readings of one item compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Uint8Array)
      ? Object.fromEntries(Object.entries(v as Item).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

const pick = (item: Item, names: string[]): Item =>
  Object.fromEntries(names.map((name) => [name, item[name]]));

/** Puts every index of `tableName` back in line with its items; returns how many entries were wrong. */
export async function repairIndexes(
  ddb: DynamoDBDocumentClient,
  tableName: string,
): Promise<number> {
  const { Table: table } = await ddb.send(new DescribeTableCommand({ TableName: tableName }));
  const tableKeys = (table?.KeySchema ?? []).map((k) => k.AttributeName ?? "");
  const indexes = table?.GlobalSecondaryIndexes ?? [];
  if (indexes.length === 0) return 0;
  const items = new Map(
    (await scanAll(ddb, { TableName: tableName })).map((item) => [
      canonical(pick(item, tableKeys)),
      item,
    ]),
  );
  let repaired = 0;
  for (const index of indexes) {
    const indexKeys = (index.KeySchema ?? []).map((k) => k.AttributeName ?? "");
    const projectsAll = index.Projection?.ProjectionType === "ALL";
    for (const entry of await scanAll(ddb, {
      TableName: tableName,
      IndexName: index.IndexName ?? "",
    })) {
      const key = pick(entry, tableKeys);
      const item = items.get(canonical(key));
      if (item === undefined) {
        // No item behind the entry: make one under the entry's keys, then delete it and the entry with it.
        await ddb.send(new PutCommand({ TableName: tableName, Item: entry }));
        await ddb.send(new DeleteCommand({ TableName: tableName, Key: key }));
      } else if (canonical(pick(item, indexKeys)) !== canonical(pick(entry, indexKeys))) {
        // The item moved on under other index keys: give it the entry's keys (so that entry is the
        // item's), then put it back as it is, which replaces that entry with the right one.
        await ddb.send(
          new PutCommand({ TableName: tableName, Item: { ...item, ...pick(entry, indexKeys) } }),
        );
        await ddb.send(new PutCommand({ TableName: tableName, Item: item }));
      } else if (projectsAll && canonical(entry) !== canonical(item)) {
        // Same keys, other content: the item as it is rewrites its entry.
        await ddb.send(new PutCommand({ TableName: tableName, Item: item }));
      } else {
        continue;
      }
      repaired++;
    }
  }
  return repaired;
}
