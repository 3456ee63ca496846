/**
 * The one table's reads and writes, written once for every store. A conditional write answers
 * whether its condition held (false when it did not) and throws any other error; a Query reads page
 * after page (LastEvaluatedKey) for as long as its caller iterates. Every item is addressed by `pk`
 * alone (item-keys.ts names them). dynalite has no transactions, so nothing here uses them.
 *
 * A write whose answer was lost (the connection dropped after it applied) is sent again by the SDK,
 * and a conditional one is then refused by its own first attempt: a store whose caller must tell
 * that apart reads the item back (BatchStore.claimAnnouncement, JobStore's conflicts).
 *
 * Every item carries the schema version it was written in (domain/schema-version.ts), written here
 * so no store can forget it: a put writes the current version, an update that sets or adds
 * attributes writes it when the item has none (an item of the previous version, whose shape the
 * current one keeps, or a new item), and never lowers a newer one. Every item read back is checked
 * here (a version this release does not read is refused, not misread) and handed to its store
 * without the attribute, so no record, view or manifest carries it by accident.
 *
 * Not ElectroDB: it adds its own attributes (`__edb_e__`, `__edb_v__`) to every item it writes and
 * by default passes over items without them, i.e. every item already stored; its key templates
 * would have to reproduce item-keys.ts exactly, and each condition here would move into its builder
 * one for one, so it would add a dependency without removing these lines.
 */
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from "@aws-sdk/lib-dynamodb";
import {
  ITEM_VERSION_ATTRIBUTE,
  readableVersion,
  SCHEMA_VERSION,
} from "../../domain/schema-version.ts";
import { JOBS_LIST_INDEX } from "./table-schema.ts";

export type Item = Record<string, unknown>;

/** An UpdateItem's expressions. */
export interface Update {
  update: string;
  condition?: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/** A Query of one partition of the listing index (gsi1). */
export interface IndexQuery {
  partition: string;
  /** A condition on the sort key (gsi1sk). */
  range?: { op: "<" | "<=" | ">"; value: string } | { between: readonly [string, string] };
  /** Highest sort key first. */
  descending?: boolean;
  /** Applied by DynamoDB after reading each page, e.g. `eventId = :e` with its values. */
  filter?: { expression: string; names?: Record<string, string>; values: Record<string, unknown> };
  /** Items read per Query (DynamoDB's Limit, counted before the filter); absent = up to 1 MB. */
  pageSize?: number;
}

export interface QueryPage {
  items: Item[];
  /** Where the next page starts; absent after the last page. */
  next?: Item;
}

/** BatchGetItem's limit of keys per call. */
const BATCH_GET_KEYS = 100;
/** DynamoDB may leave keys of a BatchGetItem unprocessed under load; they are asked for again. */
const BATCH_GET_ROUNDS = 10;

/** DynamoDB's answer when a conditional write's condition did not hold (the SDK's class or its name). */
export function isConditionFailure(error: unknown): boolean {
  return (error as { name?: string } | null)?.name === "ConditionalCheckFailedException";
}

/** True when the write applied, false when its condition did not hold; other errors are thrown. */
export async function applied(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Only the maps that hold something: DynamoDB refuses an empty ExpressionAttribute map. */
function expressionMaps(names?: Record<string, string>, values?: Record<string, unknown>) {
  return {
    ...(names === undefined || Object.keys(names).length === 0
      ? {}
      : { ExpressionAttributeNames: names }),
    ...(values === undefined || Object.keys(values).length === 0
      ? {}
      : { ExpressionAttributeValues: values }),
  };
}

/** The item as stored: with the current schema version. */
function stamped(item: Item): Item {
  return { ...item, [ITEM_VERSION_ATTRIBUTE]: SCHEMA_VERSION };
}

const VERSION_NAME = "#reelaySchemaVersion";
const VERSION_VALUE = ":reelaySchemaVersion";
const VERSION_SET = `${VERSION_NAME} = if_not_exists(${VERSION_NAME}, ${VERSION_VALUE})`;

/**
 * An update that sets or adds attributes also sets the version when the item has none. One that
 * only removes or deletes leaves it alone: it makes no attribute of the current shape.
 */
function stampedUpdate(update: Update): Update {
  const set = /\bSET\s/.exec(update.update);
  if (set === null && !/\bADD\s/.test(update.update)) return update;
  const expression =
    set === null
      ? `${update.update} SET ${VERSION_SET}`
      : `${update.update.slice(0, set.index)}SET ${VERSION_SET}, ${update.update.slice(set.index + set[0].length)}`;
  return {
    ...update,
    update: expression,
    names: { ...update.names, [VERSION_NAME]: ITEM_VERSION_ATTRIBUTE },
    values: { ...update.values, [VERSION_VALUE]: SCHEMA_VERSION },
  };
}

/** The item read back, its version checked and its version attribute dropped. */
function checked(item: Item): Item {
  const { [ITEM_VERSION_ATTRIBUTE]: version, ...rest } = item;
  readableVersion(version, `The stored item ${JSON.stringify(String(item.pk))}`);
  return rest;
}

function checkedOrNone(item: Item | undefined): Item | undefined {
  return item === undefined ? undefined : checked(item);
}

function keyCondition(query: IndexQuery): { expression: string; values: Item } {
  const partition = { ":gsi1pk": query.partition };
  const range = query.range;
  if (range === undefined) return { expression: "gsi1pk = :gsi1pk", values: partition };
  if ("between" in range) {
    return {
      expression: "gsi1pk = :gsi1pk AND gsi1sk BETWEEN :gsi1from AND :gsi1to",
      values: { ...partition, ":gsi1from": range.between[0], ":gsi1to": range.between[1] },
    };
  }
  return {
    expression: `gsi1pk = :gsi1pk AND gsi1sk ${range.op} :gsi1sk`,
    values: { ...partition, ":gsi1sk": range.value },
  };
}

export class Table {
  readonly #db: DynamoDBDocumentClient;
  readonly #name: string;

  constructor(db: DynamoDBDocumentClient, name: string) {
    this.#db = db;
    this.#name = name;
  }

  async get(pk: string, options: { consistent?: boolean } = {}): Promise<Item | undefined> {
    const answer = await this.#db.send(
      new GetCommand({
        TableName: this.#name,
        Key: { pk },
        ...(options.consistent === true ? { ConsistentRead: true } : {}),
      }),
    );
    return checkedOrNone(answer.Item);
  }

  /** The items among `pks` that exist, read consistently BATCH_GET_KEYS at a time, in no set order. */
  async getMany(pks: readonly string[]): Promise<Item[]> {
    const items: Item[] = [];
    for (let start = 0; start < pks.length; start += BATCH_GET_KEYS) {
      let keys: Item[] | undefined = pks.slice(start, start + BATCH_GET_KEYS).map((pk) => ({ pk }));
      for (
        let round = 0;
        keys !== undefined && keys.length > 0 && round < BATCH_GET_ROUNDS;
        round++
      ) {
        const answer: BatchGetCommandOutput = await this.#db.send(
          new BatchGetCommand({
            RequestItems: { [this.#name]: { Keys: keys, ConsistentRead: true } },
          }),
        );
        items.push(...(answer.Responses?.[this.#name] ?? []).map(checked));
        keys = answer.UnprocessedKeys?.[this.#name]?.Keys;
      }
    }
    return items;
  }

  /** Writes the item; with a condition that does not hold, DynamoDB's refusal is thrown. */
  async put(item: Item, condition?: string): Promise<void> {
    await this.#db.send(
      new PutCommand({
        TableName: this.#name,
        Item: stamped(item),
        ...(condition === undefined ? {} : { ConditionExpression: condition }),
      }),
    );
  }

  /** Writes the item when `condition` holds; false when it did not. */
  conditionalPut(item: Item, condition: string): Promise<boolean> {
    return applied(this.put(item, condition));
  }

  /** Updates the item; with a condition that does not hold, DynamoDB's refusal is thrown. */
  async update(pk: string, update: Update): Promise<void> {
    await this.#send(pk, update, "NONE");
  }

  /** Updates the item and answers it as it now stands; a refused condition is thrown. */
  async updateReturning(pk: string, update: Update): Promise<Item> {
    return (await this.#send(pk, update, "ALL_NEW")) ?? {};
  }

  /** Updates the item when the update's condition holds; false when it did not. */
  conditionalUpdate(pk: string, update: Update): Promise<boolean> {
    return applied(this.update(pk, update));
  }

  /** The item as the update left it, or undefined when the update's condition did not hold. */
  async conditionalUpdateReturning(pk: string, update: Update): Promise<Item | undefined> {
    let item: Item | undefined;
    const done = await applied(
      this.updateReturning(pk, update).then((attributes) => {
        item = attributes;
      }),
    );
    return done ? item : undefined;
  }

  async #send(
    pk: string,
    update: Update,
    returnValues: "NONE" | "ALL_NEW",
  ): Promise<Item | undefined> {
    const stampedOne = stampedUpdate(update);
    const answer = await this.#db.send(
      new UpdateCommand({
        TableName: this.#name,
        Key: { pk },
        UpdateExpression: stampedOne.update,
        ...(update.condition === undefined ? {} : { ConditionExpression: update.condition }),
        ...expressionMaps(stampedOne.names, stampedOne.values),
        ...(returnValues === "NONE" ? {} : { ReturnValues: returnValues }),
      }),
    );
    return checkedOrNone(answer.Attributes);
  }

  async delete(pk: string, condition?: string): Promise<void> {
    await this.#db.send(
      new DeleteCommand({
        TableName: this.#name,
        Key: { pk },
        ...(condition === undefined ? {} : { ConditionExpression: condition }),
      }),
    );
  }

  /** Deletes the item and answers it as it was; undefined when there was none. */
  async deleteReturning(pk: string): Promise<Item | undefined> {
    const answer = await this.#db.send(
      new DeleteCommand({ TableName: this.#name, Key: { pk }, ReturnValues: "ALL_OLD" }),
    );
    return checkedOrNone(answer.Attributes);
  }

  /** Deletes the item when `condition` holds; false when it did not. */
  conditionalDelete(pk: string, condition: string): Promise<boolean> {
    return applied(this.delete(pk, condition));
  }

  /** One Query of the listing index, from `start` (a page's `next`) when given. */
  async queryPage(query: IndexQuery, start?: Item): Promise<QueryPage> {
    const answer = await this.#db.send(new QueryCommand(this.#input(query, start)));
    return {
      items: (answer.Items ?? []).map(checked),
      ...(answer.LastEvaluatedKey === undefined ? {} : { next: answer.LastEvaluatedKey }),
    };
  }

  /** Every item of the query, page after page from `start`; stop iterating to stop reading. */
  async *queryAll(query: IndexQuery, start?: Item): AsyncGenerator<Item> {
    let from = start;
    do {
      const page = await this.queryPage(query, from);
      yield* page.items;
      from = page.next;
    } while (from !== undefined);
  }

  /** How many items the query matches, counted page by page without reading them out. */
  async count(query: IndexQuery): Promise<number> {
    let count = 0;
    let start: Item | undefined;
    do {
      const answer = await this.#db.send(
        new QueryCommand({ ...this.#input(query, start), Select: "COUNT" }),
      );
      count += answer.Count ?? 0;
      start = answer.LastEvaluatedKey;
    } while (start !== undefined);
    return count;
  }

  #input(query: IndexQuery, start: Item | undefined): QueryCommandInput {
    const key = keyCondition(query);
    const filter = query.filter;
    return {
      TableName: this.#name,
      IndexName: JOBS_LIST_INDEX,
      KeyConditionExpression: key.expression,
      ...expressionMaps(filter?.names, { ...key.values, ...filter?.values }),
      ...(filter === undefined ? {} : { FilterExpression: filter.expression }),
      ...(query.descending === true ? { ScanIndexForward: false } : {}),
      ...(query.pageSize === undefined ? {} : { Limit: query.pageSize }),
      ...(start === undefined ? {} : { ExclusiveStartKey: start }),
    };
  }
}
