/**
 * The gateway's reading of DynamoDB capacity for the bill (rehearsal/aws/gateway.ts), against a
 * real dynalite: every call is asked for ReturnConsumedCapacity TOTAL on its way through, the units
 * are recorded by call, and a caller that did not ask gets an answer without them, as DynamoDB
 * would give it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
} from "@aws-sdk/client-dynamodb";
import { startStandins, type Standins } from "@reelay/local/aws-standins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Gateway, startGateway } from "../../rehearsal/aws/gateway.ts";
import { IamGate } from "../../rehearsal/iam/gate.ts";

const ACCOUNT = "123456789012";
const TABLE = "bill-jobs";
const KEY = "AKIABILLTEST";
const SECRET = "bill-test-secret";

let dir: string;
let standins: Standins;
let gateway: Gateway;
let client: DynamoDBClient;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "reelay-bill-capacity-"));
  standins = await startStandins({ dataDir: dir, tableName: TABLE });
  const role = {
    name: "Tester",
    arn: `arn:aws:iam::${ACCOUNT}:role/Tester`,
    policies: [
      {
        name: "table",
        document: {
          Statement: [
            {
              Effect: "Allow",
              Action: "dynamodb:*",
              Resource: `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/${TABLE}`,
            },
          ],
        },
      },
    ],
  };
  const gate = new IamGate(new Map([[KEY, role]]), {
    partition: "aws",
    region: "us-east-1",
    accountId: ACCOUNT,
    partitionKeyOf: (table) => (table === TABLE ? "pk" : undefined),
  });
  gateway = await startGateway({
    gate,
    secretFor: (key) => (key === KEY ? SECRET : undefined),
    region: "us-east-1",
    dynamoEndpoint: standins.dynamoEndpoint,
    s3Endpoint: standins.s3Endpoint,
    standins: {},
  });
  client = new DynamoDBClient({
    region: "us-east-1",
    endpoint: gateway.url,
    credentials: { accessKeyId: KEY, secretAccessKey: SECRET },
  });
}, 60_000);

afterAll(async () => {
  client?.destroy();
  await gateway?.close();
  await standins?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the gateway's DynamoDB capacity", () => {
  it("records the request units dynalite computes from the item's size, and hides them from a caller that did not ask", async () => {
    // About 2.5 KB: 3 write units (1 KB each); 0.5 read unit eventually consistent (4 KB), 1 strongly.
    const item = { pk: { S: "vidtsk_bill" }, body: { S: "x".repeat(2500) } };
    const put = await client.send(new PutItemCommand({ TableName: TABLE, Item: item }));
    expect(put.ConsumedCapacity).toBeUndefined();
    const read = await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: item.pk } }));
    expect(read.Item?.body?.S).toHaveLength(2500);
    expect(read.ConsumedCapacity).toBeUndefined();
    const asked = await client.send(
      new GetItemCommand({
        TableName: TABLE,
        Key: { pk: item.pk },
        ConsistentRead: true,
        ReturnConsumedCapacity: "TOTAL",
      }),
    );
    expect(asked.ConsumedCapacity?.CapacityUnits).toBe(1);
    await expect(
      client.send(
        new PutItemCommand({
          TableName: TABLE,
          Item: item,
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      ),
    ).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    expect(
      gateway.consumed().map(({ call, read, units, failed }) => ({
        operation: call.operation,
        read,
        units,
        failed,
      })),
    ).toEqual([
      { operation: "PutItem", read: false, units: 3, failed: false },
      { operation: "GetItem", read: true, units: 0.5, failed: false },
      { operation: "GetItem", read: true, units: 1, failed: false },
      // A write whose condition failed is still billed a unit.
      { operation: "PutItem", read: false, units: 1, failed: true },
    ]);
  });
});
