/**
 * The deploy rehearsal's IAM gate, with the real evaluator (@cloud-copilot/iam-simulate) and small
 * roles written here after the statements reelay's synthesized template gives its functions
 * (their ARNs already resolved, as the gate receives them).
 */
import { describe, expect, it } from "vitest";
import type { AwsCall, AwsService } from "../../rehearsal/aws/call.ts";
import { IamGate, type Role, UNKNOWN_ROLE } from "../../rehearsal/iam/gate.ts";
import { type AccountFacts, iamRequestsFor } from "../../rehearsal/iam/requests.ts";

const ACCOUNT = "123456789012";
const TABLE = `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/Jobs`;
const INDEX = `${TABLE}/index/gsi1`;
const BUCKET = "arn:aws:s3:::reelay-bucket";

const facts: AccountFacts = {
  partition: "aws",
  region: "us-east-1",
  accountId: ACCOUNT,
  partitionKeyOf: (table, index) => {
    if (table !== "Jobs") return undefined;
    if (index === undefined) return "pk";
    return index === "gsi1" ? "gsi1pk" : undefined;
  },
};

const leadingKeys = (...patterns: string[]) => ({
  "ForAllValues:StringLike": { "dynamodb:LeadingKeys": patterns },
});

function role(name: string, ...statements: object[]): Role {
  return {
    name,
    arn: `arn:aws:iam::${ACCOUNT}:role/${name}`,
    policies: [
      { name: `${name}Policy`, document: { Version: "2012-10-17", Statement: statements } },
    ],
  };
}

/** The jobs statement every step function has, and the API's index and audit statements. */
const api = role(
  "Api",
  {
    Effect: "Allow",
    Action: ["dynamodb:GetItem", "dynamodb:UpdateItem"],
    Resource: TABLE,
    Condition: leadingKeys("vidtsk_*", "imgtsk_*", "fp#*"),
  },
  { Effect: "Allow", Action: "dynamodb:Query", Resource: INDEX, Condition: leadingKeys("QUEUE") },
  { Effect: "Allow", Action: ["dynamodb:UpdateItem", "dynamodb:PutItem"], Resource: TABLE },
  {
    Effect: "Deny",
    Action: ["dynamodb:UpdateItem", "dynamodb:DeleteItem"],
    Resource: TABLE,
    Condition: { "ForAnyValue:StringLike": { "dynamodb:LeadingKeys": ["aud_*"] } },
  },
);

/** Poll's: the jobs table, and Query only on the table, not on its index. */
const poll = role(
  "Poll",
  { Effect: "Allow", Action: "dynamodb:Query", Resource: TABLE, Condition: leadingKeys("QUEUE") },
  {
    Effect: "Allow",
    Action: "dynamodb:GetItem",
    Resource: TABLE,
    Condition: leadingKeys("stats#*"),
  },
);

/** Download's outputs, tags included; Thumbnail's previews, no tags. */
const download = role("Download", {
  Effect: "Allow",
  Action: ["s3:PutObject", "s3:PutObjectTagging", "s3:AbortMultipartUpload", "s3:GetObject"],
  Resource: `${BUCKET}/outputs/*`,
});
const thumbnail = role(
  "Thumbnail",
  { Effect: "Allow", Action: "s3:GetObject", Resource: `${BUCKET}/outputs/*/video.mp4` },
  { Effect: "Allow", Action: "s3:PutObject", Resource: `${BUCKET}/outputs/*/thumbnail.jpg` },
);

/** Drop's inbox: list under inbox/, read and delete there, write rejected/. */
const drop = role(
  "Drop",
  {
    Effect: "Allow",
    Action: "s3:ListBucket",
    Resource: BUCKET,
    Condition: { StringLike: { "s3:prefix": ["inbox/*"] } },
  },
  { Effect: "Allow", Action: ["s3:GetObject", "s3:DeleteObject"], Resource: `${BUCKET}/inbox/*` },
  { Effect: "Allow", Action: "s3:PutObject", Resource: `${BUCKET}/rejected/*` },
);

function gate(...roles: Role[]): IamGate {
  return new IamGate(new Map(roles.map((r) => [`KEY-${r.name}`, r])), facts);
}

function call(who: Role | string, service: AwsService, operation: string, input: object): AwsCall {
  const accessKeyId = typeof who === "string" ? who : `KEY-${who.name}`;
  return { accessKeyId, service, operation, input: input as Record<string, unknown> };
}

const getItem = (who: Role, pk: string) =>
  call(who, "dynamodb", "GetItem", { TableName: "Jobs", Key: { pk: { S: pk }, sk: { S: "x" } } });

const s3 = (who: Role, operation: string, input: object) =>
  call(who, "s3", operation, { tagging: false, bucket: "reelay-bucket", ...input });

describe("DynamoDB's leading keys", () => {
  it("allows a GetItem on a key the condition's prefixes cover and denies another, naming both", async () => {
    const g = gate(api);
    expect((await g.authorize(getItem(api, "vidtsk_01"))).allowed).toBe(true);
    const denied = await g.authorize(getItem(api, "apikey#x"));
    expect(denied.allowed).toBe(false);
    const reason = denied.decisions[0]?.reason ?? "";
    expect(reason).toContain("dynamodb:GetItem");
    expect(reason).toContain("dynamodb:LeadingKeys=[apikey#x]");
    expect(reason).toContain("denied implicitly");
    // The statement that came closest is named with the condition it failed.
    expect(reason).toContain("vidtsk_*");
  });

  it("authorizes a Query on an index on the index's ARN, with the index's partition key", async () => {
    const query = (who: Role) =>
      call(who, "dynamodb", "Query", {
        TableName: "Jobs",
        IndexName: "gsi1",
        KeyConditionExpression: "#p = :p AND begins_with(#s, :s)",
        ExpressionAttributeNames: { "#p": "gsi1pk", "#s": "gsi1sk" },
        ExpressionAttributeValues: { ":p": { S: "QUEUE" }, ":s": { S: "2026" } },
      });
    expect(iamRequestsFor(query(api), facts)).toEqual([
      { action: "dynamodb:Query", resource: INDEX, context: { "dynamodb:LeadingKeys": ["QUEUE"] } },
    ]);
    const g = gate(api, poll);
    expect((await g.authorize(query(api))).allowed).toBe(true);
    // Poll may Query the table with the same key, but not its index.
    const denied = await g.authorize(query(poll));
    expect(denied.allowed).toBe(false);
    expect(denied.decisions[0]?.reason).toContain(`dynamodb:Query on ${INDEX}`);
    expect(denied.decisions[0]?.reason).toContain(`allows the action only on "${TABLE}"`);
  });

  it("lets an explicit Deny on aud_ keys win over the Allow of every UpdateItem", async () => {
    const update = (pk: string) =>
      call(api, "dynamodb", "UpdateItem", { TableName: "Jobs", Key: { pk: { S: pk } } });
    const g = gate(api);
    expect((await g.authorize(update("budget#1"))).allowed).toBe(true);
    const denied = await g.authorize(update("aud_7"));
    expect(denied.allowed).toBe(false);
    const reason = denied.decisions[0]?.reason ?? "";
    expect(reason).toContain("denied explicitly");
    expect(reason).toContain("policy ApiPolicy Statement[3]");
    expect(reason).toContain("aud_*");
  });

  it("checks each item of a TransactWriteItems as its own action, in its transaction", async () => {
    const transact = (updatePk: string) =>
      call(api, "dynamodb", "TransactWriteItems", {
        TransactItems: [
          { Put: { TableName: "Jobs", Item: { pk: { S: "vidtsk_1" }, n: { N: "1" } } } },
          { Update: { TableName: "Jobs", Key: { pk: { S: updatePk } } } },
        ],
      });
    const requests = iamRequestsFor(transact("fp#1"), facts);
    expect(requests.map((r) => [r.action, r.context])).toEqual([
      [
        "dynamodb:PutItem",
        {
          "dynamodb:LeadingKeys": ["vidtsk_1"],
          "dynamodb:EnclosingOperation": "TransactWriteItems",
        },
      ],
      [
        "dynamodb:UpdateItem",
        { "dynamodb:LeadingKeys": ["fp#1"], "dynamodb:EnclosingOperation": "TransactWriteItems" },
      ],
    ]);
    const g = gate(api);
    expect((await g.authorize(transact("fp#1"))).allowed).toBe(true);
    const verdict = await g.authorize(transact("aud_1"));
    expect(verdict.allowed).toBe(false);
    expect(verdict.decisions.map((d) => d.allowed)).toEqual([true, false]);
  });

  it("reads the partition key from the legacy KeyConditions and from a batch's items", () => {
    const legacy = call(api, "dynamodb", "Query", {
      TableName: "Jobs",
      KeyConditions: { pk: { ComparisonOperator: "EQ", AttributeValueList: [{ S: "fp#9" }] } },
    });
    expect(iamRequestsFor(legacy, facts)[0]?.context).toEqual({ "dynamodb:LeadingKeys": ["fp#9"] });
    const batch = call(api, "dynamodb", "BatchWriteItem", {
      RequestItems: {
        Jobs: [
          { PutRequest: { Item: { pk: { S: "a" } } } },
          { DeleteRequest: { Key: { pk: { S: "b" } } } },
          { PutRequest: { Item: { pk: { S: "a" } } } },
        ],
      },
    });
    expect(iamRequestsFor(batch, facts)).toEqual([
      {
        action: "dynamodb:BatchWriteItem",
        resource: TABLE,
        context: { "dynamodb:LeadingKeys": ["a", "b"] },
      },
    ]);
  });

  it("refuses a call whose table or key it cannot read rather than leave the leading keys out", () => {
    const unknownTable = call(api, "dynamodb", "GetItem", {
      TableName: "Nope",
      Key: { pk: { S: "a" } },
    });
    expect(() => iamRequestsFor(unknownTable, facts)).toThrow(/table Nope/);
    const noEquality = call(api, "dynamodb", "Query", {
      TableName: "Jobs",
      KeyConditionExpression: "sk > :v",
      ExpressionAttributeValues: { ":v": { S: "a" } },
    });
    expect(() => iamRequestsFor(noEquality, facts)).toThrow(/partition key pk/);
  });
});

describe("S3", () => {
  const put = (who: Role, key: string, tagging: boolean) => s3(who, "PutObject", { key, tagging });

  it("needs s3:PutObjectTagging for a PutObject that sets tags", async () => {
    const g = gate(download, thumbnail);
    expect((await g.authorize(put(thumbnail, "outputs/j1/thumbnail.jpg", false))).allowed).toBe(
      true,
    );
    const denied = await g.authorize(put(thumbnail, "outputs/j1/thumbnail.jpg", true));
    expect(denied.allowed).toBe(false);
    expect(denied.decisions.find((d) => !d.allowed)?.reason).toContain(
      `s3:PutObjectTagging on ${BUCKET}/outputs/j1/thumbnail.jpg`,
    );
    expect((await g.authorize(put(download, "outputs/j1/video.mp4", true))).allowed).toBe(true);
  });

  it("needs read on a copy's source and write on its target", async () => {
    // Drop reads inbox/ and writes rejected/; the copy replaces the tags with none.
    const copy = (from: string, to: string, directive: "COPY" | "REPLACE" = "REPLACE") =>
      s3(drop, "CopyObject", {
        key: to,
        copySource: { bucket: "reelay-bucket", key: from },
        taggingDirective: directive,
      });
    const g = gate(drop);
    const allowed = await g.authorize(copy("inbox/a.mp4", "rejected/a.mp4"));
    expect(allowed.decisions.map((d) => [d.request.action, d.request.resource])).toEqual([
      ["s3:GetObject", `${BUCKET}/inbox/a.mp4`],
      ["s3:PutObject", `${BUCKET}/rejected/a.mp4`],
    ]);
    expect(allowed.allowed).toBe(true);
    const unreadable = await g.authorize(copy("outputs/a.mp4", "rejected/a.mp4"));
    expect(unreadable.decisions.map((d) => d.allowed)).toEqual([false, true]);
    const unwritable = await g.authorize(copy("inbox/a.mp4", "inbox/b.mp4"));
    expect(unwritable.decisions.map((d) => d.allowed)).toEqual([true, false]);
    // Copying the source's tags reads them there and writes them on the copy.
    const withTags = await g.authorize(copy("inbox/a.mp4", "rejected/a.mp4", "COPY"));
    expect(withTags.allowed).toBe(false);
    expect(withTags.decisions.filter((d) => !d.allowed).map((d) => d.request.action)).toEqual([
      "s3:GetObjectTagging",
      "s3:PutObjectTagging",
    ]);
  });

  it("lists only under the prefix the s3:prefix condition allows", async () => {
    const list = (prefix?: string) =>
      s3(drop, "ListObjectsV2", prefix === undefined ? {} : { prefix });
    const g = gate(drop);
    expect((await g.authorize(list("inbox/2026/"))).allowed).toBe(true);
    const outside = await g.authorize(list("outputs/"));
    expect(outside.allowed).toBe(false);
    expect(outside.decisions[0]?.reason).toContain(
      `s3:ListBucket on ${BUCKET} with s3:prefix=outputs/`,
    );
    expect((await g.authorize(list())).allowed).toBe(false);
  });

  it("reads a * in an object key as the character it is, not as a wildcard", async () => {
    const g = gate(drop);
    // inbox/* covers inbox/a*b; it does not cover in*, which a pattern reading would let through.
    expect((await g.authorize(s3(drop, "GetObject", { key: "inbox/a*b" }))).allowed).toBe(true);
    const denied = await g.authorize(s3(drop, "GetObject", { key: "in*" }));
    expect(denied.allowed).toBe(false);
    expect(denied.decisions[0]?.reason).toContain(`s3:GetObject on ${BUCKET}/in*`);
  });

  it("authorizes each key of a DeleteObjects, and multipart steps as the user guide lists them", () => {
    const keys = iamRequestsFor(
      s3(drop, "DeleteObjects", { deleteKeys: ["inbox/a", "inbox/b"] }),
      facts,
    );
    expect(keys.map((r) => r.resource)).toEqual([`${BUCKET}/inbox/a`, `${BUCKET}/inbox/b`]);
    const actions = (operation: string, input: object = {}) =>
      iamRequestsFor(s3(download, operation, { key: "outputs/k", ...input }), facts).map(
        (r) => r.action,
      );
    expect(actions("CreateMultipartUpload", { tagging: true })).toEqual([
      "s3:PutObject",
      "s3:PutObjectTagging",
    ]);
    expect(actions("UploadPart")).toEqual(["s3:PutObject"]);
    expect(actions("ListParts")).toEqual(["s3:ListMultipartUploadParts"]);
    expect(actions("HeadBucket")).toEqual(["s3:ListBucket"]);
  });
});

describe("the other services", () => {
  it("names each service's resource as IAM does", () => {
    const resources = (service: AwsService, operation: string, input: object) =>
      iamRequestsFor(call(api, service, operation, input), facts).map((r) => [
        r.action,
        r.resource,
        r.context,
      ]);
    expect(
      resources("events", "PutEvents", {
        Entries: [
          { Source: "reelay", DetailType: "Job Succeeded" },
          { Source: "reelay", DetailType: "Job Succeeded", EventBusName: "reelay-bus" },
        ],
      }),
    ).toEqual([
      [
        "events:PutEvents",
        `arn:aws:events:us-east-1:${ACCOUNT}:event-bus/default`,
        { "events:source": ["reelay"], "events:detail-type": ["Job Succeeded"] },
      ],
      [
        "events:PutEvents",
        `arn:aws:events:us-east-1:${ACCOUNT}:event-bus/reelay-bus`,
        { "events:source": ["reelay"], "events:detail-type": ["Job Succeeded"] },
      ],
    ]);
    expect(
      resources("ssm", "GetParameters", {
        Names: ["/sst/reelay/test/Secret/KEY/value", "plain:3"],
      }),
    ).toEqual([
      [
        "ssm:GetParameters",
        `arn:aws:ssm:us-east-1:${ACCOUNT}:parameter/sst/reelay/test/Secret/KEY/value`,
        {},
      ],
      ["ssm:GetParameters", `arn:aws:ssm:us-east-1:${ACCOUNT}:parameter/plain`, {}],
    ]);
    const fn = `arn:aws:lambda:us-east-1:${ACCOUNT}:function:test-reelay-dispatch`;
    for (const [input, arn] of [
      [{ FunctionName: "test-reelay-dispatch" }, fn],
      [{ FunctionName: "test-reelay-dispatch:live" }, `${fn}:live`],
      [{ FunctionName: `${ACCOUNT}:function:test-reelay-dispatch` }, fn],
      [{ FunctionName: fn, Qualifier: "3" }, `${fn}:3`],
    ] as const)
      expect(resources("lambda", "Invoke", input)).toEqual([["lambda:InvokeFunction", arn, {}]]);
    const execution = `arn:aws:states:us-east-1:${ACCOUNT}:execution:JobFlow:j1`;
    expect(resources("states", "StopExecution", { executionArn: execution })).toEqual([
      ["states:StopExecution", execution, {}],
    ]);
    expect(resources("xray", "PutTraceSegments", { TraceSegmentDocuments: [] })).toEqual([
      ["xray:PutTraceSegments", "*", {}],
    ]);
  });
});

describe("the gate", () => {
  it("denies a call signed with an access key of no role, and records it", async () => {
    const g = gate(api);
    const verdict = await g.authorize(
      call("AKIA-STRANGER", "dynamodb", "GetItem", getItem(api, "vidtsk_1").input),
    );
    expect(verdict.allowed).toBe(false);
    expect(verdict.decisions[0]?.reason).toContain("unknown credentials");
    expect(g.calls().map((c) => [c.role, c.verdict.allowed])).toEqual([[UNKNOWN_ROLE, false]]);
  });

  it("denies an unknown access key before it looks at the operation", async () => {
    const verdict = await gate(api).authorize(call("AKIA-STRANGER", "dynamodb", "Frobnicate", {}));
    expect(verdict.allowed).toBe(false);
    expect(verdict.decisions[0]?.reason).toContain("unknown credentials");
  });

  it("refuses a call that names nothing to authorize rather than pass it", () => {
    const empty = call(api, "dynamodb", "BatchGetItem", { RequestItems: {} });
    expect(() => iamRequestsFor(empty, facts)).toThrow(/nothing to authorize/);
  });

  it("throws on an operation it has no mapping for, and records the call as denied", async () => {
    const frobnicate = call(api, "dynamodb", "Frobnicate", { TableName: "Jobs" });
    expect(() => iamRequestsFor(frobnicate, facts)).toThrow(/dynamodb Frobnicate/);
    const g = gate(api);
    await expect(g.authorize(frobnicate)).rejects.toThrow(/dynamodb Frobnicate/);
    expect(g.calls()[0]?.verdict.decisions[0]).toMatchObject({
      request: { action: "dynamodb:Frobnicate" },
      allowed: false,
    });
  });

  it("lists exactly the granted (action, resource) pairs no allowed request used", async () => {
    const g = gate(drop, thumbnail);
    await g.authorize(s3(drop, "ListObjectsV2", { prefix: "inbox/" }));
    await g.authorize(s3(drop, "GetObject", { key: "inbox/a.mp4" }));
    // Denied requests use nothing: PutObject outside rejected/, GetObject outside video.mp4.
    await g.authorize(s3(drop, "PutObject", { key: "inbox/b.mp4" }));
    await g.authorize(s3(thumbnail, "GetObject", { key: "outputs/j1/job.json" }));
    await g.authorize(s3(thumbnail, "PutObject", { key: "outputs/j1/thumbnail.jpg" }));
    expect(g.unusedGrants()).toEqual([
      {
        role: "Drop",
        policy: "DropPolicy",
        statement: 1,
        action: "s3:DeleteObject",
        resource: `${BUCKET}/inbox/*`,
      },
      {
        role: "Drop",
        policy: "DropPolicy",
        statement: 2,
        action: "s3:PutObject",
        resource: `${BUCKET}/rejected/*`,
      },
      {
        role: "Thumbnail",
        policy: "ThumbnailPolicy",
        statement: 0,
        action: "s3:GetObject",
        resource: `${BUCKET}/outputs/*/video.mp4`,
      },
    ]);
  });

  it("counts a wildcard action as one grant, used by any action it covers", async () => {
    const runtime = role(
      "Runtime",
      { Effect: "Allow", Action: "xray:*", Resource: "*" },
      { Effect: "Allow", Action: ["logs:CreateLogStream", "logs:PutLogEvents"], Resource: "*" },
    );
    const g = gate(runtime);
    await g.authorize(call(runtime, "xray", "PutTelemetryRecords", {}));
    expect(g.unusedGrants().map((u) => [u.statement, u.action, u.resource])).toEqual([
      [1, "logs:CreateLogStream", "*"],
      [1, "logs:PutLogEvents", "*"],
    ]);
  });

  it("leaves Deny statements out of the grants and counts every Allow that matched", async () => {
    const g = gate(api);
    // vidtsk_ updates match both the conditional Allow and the unconditional one.
    await g.authorize(
      call(api, "dynamodb", "UpdateItem", { TableName: "Jobs", Key: { pk: { S: "vidtsk_1" } } }),
    );
    expect(g.unusedGrants().map((u) => [u.statement, u.action])).toEqual([
      [0, "dynamodb:GetItem"],
      [1, "dynamodb:Query"],
      [2, "dynamodb:PutItem"],
    ]);
  });

  it("answers a repeated authorization from its cache with the same verdict", async () => {
    const g = gate(api);
    const first = await g.authorize(getItem(api, "apikey#x"));
    const again = await g.authorize(getItem(api, "apikey#x"));
    expect(again).toEqual(first);
    expect(g.stats()).toEqual({ lookups: 2, evaluations: 1 });
    // The same authorization from another operation's call is the same entry too.
    await g.authorize(
      call(api, "dynamodb", "GetItem", { TableName: "Jobs", Key: { pk: { S: "apikey#x" } } }),
    );
    expect(g.stats()).toEqual({ lookups: 3, evaluations: 1 });
    expect(g.calls().map((c) => c.verdict.allowed)).toEqual([false, false, false]);
  });
});
