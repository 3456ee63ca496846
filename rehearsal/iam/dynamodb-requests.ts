/**
 * The authorizations a DynamoDB call needs. Item operations carry `dynamodb:LeadingKeys`, the
 * partition key values they reach ("Represents the first key attribute of a table—in other words,
 * the partition key", DynamoDB developer guide, "Using IAM policy conditions for fine-grained access
 * control"). Scan carries none: it "returns all items regardless of the leading keys" (same page).
 */
import type { AwsCall } from "../aws/call.ts";
import {
  type AccountFacts,
  arrayField,
  distinct,
  type IamRequest,
  isRecord,
  malformed,
  optionalString,
  recordField,
  regionalArn,
  request,
  stringField,
  unknownOperation,
} from "./iam-request.ts";
import { partitionKeyValue } from "./key-condition.ts";

/** Operations whose only authorization is the same-named action on the table. */
const TABLE_OPERATIONS = new Set([
  "DescribeTable",
  "CreateTable",
  "DeleteTable",
  "UpdateTable",
  "DescribeTimeToLive",
  "UpdateTimeToLive",
]);

/**
 * A transaction's parts are authorized as the single-item actions ("Permissions for Put, Update,
 * Delete, and Get actions are governed by the permissions used for the underlying PutItem,
 * UpdateItem, DeleteItem, and GetItem operations. For the ConditionCheck action, you can use the
 * dynamodb:ConditionCheckItem permission", developer guide, "Using IAM with DynamoDB
 * transactions"), with `dynamodb:EnclosingOperation` naming the transaction (same page).
 */
const TRANSACT_PARTS: Record<string, { action: string; keyField: "Key" | "Item" }> = {
  Put: { action: "dynamodb:PutItem", keyField: "Item" },
  Update: { action: "dynamodb:UpdateItem", keyField: "Key" },
  Delete: { action: "dynamodb:DeleteItem", keyField: "Key" },
  ConditionCheck: { action: "dynamodb:ConditionCheckItem", keyField: "Key" },
  Get: { action: "dynamodb:GetItem", keyField: "Key" },
};

interface Table {
  arn: string;
  name: string;
}

export function dynamodbRequests(call: AwsCall, facts: AccountFacts): IamRequest[] {
  const input = call.input;
  switch (call.operation) {
    case "GetItem":
    case "UpdateItem":
    case "DeleteItem":
      return [itemRequest(call, facts, `dynamodb:${call.operation}`, input, "Key")];
    case "PutItem":
      return [itemRequest(call, facts, "dynamodb:PutItem", input, "Item")];
    case "Query":
      return [queryRequest(call, facts)];
    case "Scan":
      return [request("dynamodb:Scan", indexOrTable(call, facts).resource)];
    case "BatchGetItem":
      return batchRequests(call, facts, "dynamodb:BatchGetItem", batchGetKeys);
    case "BatchWriteItem":
      return batchRequests(call, facts, "dynamodb:BatchWriteItem", batchWriteKeys);
    case "TransactWriteItems":
    case "TransactGetItems":
      return transactRequests(call, facts);
    case "ListTables":
      return [request("dynamodb:ListTables", "*")];
    default:
      if (!TABLE_OPERATIONS.has(call.operation)) throw unknownOperation(call);
      return [
        request(
          `dynamodb:${call.operation}`,
          tableOf(facts, stringField(call, input, "TableName")).arn,
        ),
      ];
  }
}

/** TableName may be a name or (since the SDKs accept it) the table's ARN. */
function tableOf(facts: AccountFacts, tableName: string): Table {
  if (!tableName.startsWith("arn:"))
    return { arn: regionalArn(facts, "dynamodb", `table/${tableName}`), name: tableName };
  return { arn: tableName, name: tableName.slice(tableName.indexOf(":table/") + ":table/".length) };
}

function partitionKeyOf(call: AwsCall, facts: AccountFacts, table: string, index?: string): string {
  const key = facts.partitionKeyOf(table, index);
  if (key === undefined)
    throw malformed(
      call,
      `names ${index === undefined ? "table" : `index ${index} of table`} ${table}, whose partition key is unknown`,
    );
  return key;
}

/** A key attribute's value as IAM compares it: the string inside S, N or B. */
function keyValue(call: AwsCall, item: unknown, attribute: string): string {
  const value = isRecord(item) ? item[attribute] : undefined;
  if (isRecord(value))
    for (const type of ["S", "N", "B"])
      if (typeof value[type] === "string") return value[type] as string;
  throw malformed(call, `gives its partition key ${attribute} no string, number or binary value`);
}

function itemRequest(
  call: AwsCall,
  facts: AccountFacts,
  action: string,
  target: Record<string, unknown>,
  keyField: "Key" | "Item",
  context: IamRequest["context"] = {},
): IamRequest {
  const table = tableOf(facts, stringField(call, target, "TableName"));
  const key = keyValue(
    call,
    recordField(call, target, keyField),
    partitionKeyOf(call, facts, table.name),
  );
  return request(action, table.arn, { "dynamodb:LeadingKeys": [key], ...context });
}

/** A Query or Scan on an index is authorized on the index's ARN, `<table ARN>/index/<name>`. */
function indexOrTable(call: AwsCall, facts: AccountFacts) {
  const table = tableOf(facts, stringField(call, call.input, "TableName"));
  const index = optionalString(call.input, "IndexName");
  const resource = index === undefined ? table.arn : `${table.arn}/index/${index}`;
  return { table, index, resource };
}

/**
 * On an index, the leading key is the index's own partition key: a Query on an index names no
 * other ("For a query on an index, you can have conditions only on the index key attributes. You
 * must provide the index partition key name and value as an EQ condition", developer guide,
 * "KeyConditions (legacy)").
 */
function queryRequest(call: AwsCall, facts: AccountFacts): IamRequest {
  const { table, index, resource } = indexOrTable(call, facts);
  const partitionKey = partitionKeyOf(call, facts, table.name, index);
  const value = partitionKeyValue(call, call.input, partitionKey);
  return request("dynamodb:Query", resource, {
    "dynamodb:LeadingKeys": [keyValue(call, { [partitionKey]: value }, partitionKey)],
  });
}

type KeysOf = (call: AwsCall, spec: unknown) => unknown[];

const batchGetKeys: KeysOf = (call, spec) => (isRecord(spec) ? arrayField(call, spec, "Keys") : []);

const batchWriteKeys: KeysOf = (call, spec) =>
  (Array.isArray(spec) ? spec : []).map((write) => {
    const put = isRecord(write) ? write.PutRequest : undefined;
    const del = isRecord(write) ? write.DeleteRequest : undefined;
    if (isRecord(put)) return put.Item;
    if (isRecord(del)) return del.Key;
    throw malformed(call, "has a write that is neither a PutRequest nor a DeleteRequest");
  });

/** A batch is authorized once per table, with the leading keys of all its items in that table. */
function batchRequests(
  call: AwsCall,
  facts: AccountFacts,
  action: string,
  keysOf: KeysOf,
): IamRequest[] {
  const items = recordField(call, call.input, "RequestItems");
  return Object.entries(items).map(([tableName, spec]) => {
    const table = tableOf(facts, tableName);
    const partitionKey = partitionKeyOf(call, facts, table.name);
    const keys = keysOf(call, spec).map((item) => keyValue(call, item, partitionKey));
    if (keys.length === 0) throw malformed(call, `names no items of ${tableName}`);
    return request(action, table.arn, { "dynamodb:LeadingKeys": distinct(keys) });
  });
}

function transactRequests(call: AwsCall, facts: AccountFacts): IamRequest[] {
  const enclosing = { "dynamodb:EnclosingOperation": call.operation };
  return arrayField(call, call.input, "TransactItems").map((item) => {
    const [kind, target] = isRecord(item) ? (Object.entries(item)[0] ?? []) : [];
    const part = kind === undefined ? undefined : TRANSACT_PARTS[kind];
    const allowed = call.operation === "TransactGetItems" ? kind === "Get" : kind !== "Get";
    if (part === undefined || !allowed || !isRecord(target))
      throw malformed(
        call,
        `has a TransactItems entry that is not one of its parts (${kind ?? "empty"})`,
      );
    return itemRequest(call, facts, part.action, target, part.keyField, enclosing);
  });
}
