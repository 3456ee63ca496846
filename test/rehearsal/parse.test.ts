/**
 * The rehearsal gateway's reading of AWS requests (rehearsal/aws/): every request here is one the
 * real SDK clients sent, captured at a local server, so the parser, the error answers and the
 * signature check are held to the wire format of the SDK in node_modules, not to a hand-written
 * idea of it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import {
  BatchGetItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ResourceNotFoundException,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from "@aws-sdk/client-dynamodb";
import { EventBridgeClient, PutEventsCommand } from "@aws-sdk/client-eventbridge";
import { InvokeCommand, LambdaClient } from "@aws-sdk/client-lambda";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  PutObjectTaggingCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { SFNClient, StartExecutionCommand, StopExecutionCommand } from "@aws-sdk/client-sfn";
import { GetParametersCommand, SSMClient } from "@aws-sdk/client-ssm";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { Sha256 } from "@smithy/core/checksum";
import { SignatureV4 } from "@smithy/signature-v4";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AwsCall } from "../../rehearsal/aws/call.ts";
import { type AwsErrorAnswer, accessDenied, awsError } from "../../rehearsal/aws/errors.ts";
import {
  isPresigned,
  needsBody,
  parseAwsRequest,
  type RawRequest,
  UnparsedRequest,
} from "../../rehearsal/aws/parse.ts";
import { verifySignature } from "../../rehearsal/aws/signature.ts";

const credentials = { accessKeyId: "AKIDREHEARSALPARSE", secretAccessKey: "parse-test-secret" };
const secretFor = (id: string) =>
  id === credentials.accessKeyId ? credentials.secretAccessKey : undefined;
const region = "us-east-1";

/** A local server that records what the clients send and answers what the test sets. */
const recorded: RawRequest[] = [];
let answer: AwsErrorAnswer | undefined;
let endpoint = "";
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const raw = { method: req.method!, url: req.url!, headers: req.headers };
    recorded.push({ ...raw, body: Buffer.concat(chunks) });
    if (answer) {
      res.writeHead(answer.status, answer.headers).end(answer.body);
      return;
    }
    const json = typeof req.headers["x-amz-target"] === "string";
    res.writeHead(200, { "content-type": json ? "application/x-amz-json-1.0" : "application/xml" });
    res.end(json ? "{}" : "");
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  answer = undefined;
});

const config = () => ({ endpoint, region, credentials, maxAttempts: 1 });

/** The requests one call sent; the minimal answers may not satisfy the client, which is fine. */
async function capture(send: () => Promise<unknown>): Promise<RawRequest[]> {
  recorded.length = 0;
  await send().catch(() => undefined);
  return [...recorded];
}

async function one(send: () => Promise<unknown>): Promise<RawRequest> {
  const requests = await capture(send);
  expect(requests).toHaveLength(1);
  return requests[0]!;
}

/** What the gateway does: the body only when the parser needs it, as S3 object bodies stream. */
function asGatewaySees(req: RawRequest): RawRequest {
  return needsBody(req) ? req : { ...req, body: Buffer.alloc(0) };
}

function parsed(req: RawRequest): AwsCall {
  return parseAwsRequest(asGatewaySees(req));
}

const dynamo = () => new DynamoDBClient(config());
const s3 = () => new S3Client(config());
const table = "reelay-jobs";
const key = { pk: { S: "job#1" } };

describe("parseAwsRequest: DynamoDB (JSON 1.0)", () => {
  it.each([
    ["GetItem", () => dynamo().send(new GetItemCommand({ TableName: table, Key: key }))],
    ["PutItem", () => dynamo().send(new PutItemCommand({ TableName: table, Item: key }))],
    [
      "UpdateItem",
      () =>
        dynamo().send(
          new UpdateItemCommand({
            TableName: table,
            Key: key,
            UpdateExpression: "SET #s = :s",
            ExpressionAttributeNames: { "#s": "status" },
            ExpressionAttributeValues: { ":s": { S: "done" } },
          }),
        ),
    ],
    [
      "Query",
      () =>
        dynamo().send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: "pk = :pk",
            ExpressionAttributeValues: { ":pk": { S: "job#1" } },
          }),
        ),
    ],
  ])("%s names the operation, the signer and the table", async (operation, send) => {
    const call = parsed(await one(send));
    expect(call).toMatchObject({
      service: "dynamodb",
      operation,
      accessKeyId: credentials.accessKeyId,
    });
    expect(call.input.TableName).toBe(table);
  });

  it("GetItem's input is the JSON body, as sent", async () => {
    const call = parsed(
      await one(() => dynamo().send(new GetItemCommand({ TableName: table, Key: key }))),
    );
    expect(call.input).toEqual({ TableName: table, Key: key });
  });

  it("TransactWriteItems and BatchGetItem name their tables inside the input", async () => {
    const transact = parsed(
      await one(() =>
        dynamo().send(
          new TransactWriteItemsCommand({
            TransactItems: [
              { Put: { TableName: table, Item: key } },
              { Delete: { TableName: "reelay-idem", Key: key } },
            ],
          }),
        ),
      ),
    );
    expect(transact.operation).toBe("TransactWriteItems");
    expect(transact.input.TransactItems).toEqual([
      { Put: { TableName: table, Item: key } },
      { Delete: { TableName: "reelay-idem", Key: key } },
    ]);
    const batch = parsed(
      await one(() =>
        dynamo().send(new BatchGetItemCommand({ RequestItems: { [table]: { Keys: [key] } } })),
      ),
    );
    expect(batch.operation).toBe("BatchGetItem");
    expect(batch.input.RequestItems).toEqual({ [table]: { Keys: [key] } });
  });
});

describe("parseAwsRequest: EventBridge, SSM (JSON 1.1), Step Functions (JSON 1.0)", () => {
  it("EventBridge PutEvents", async () => {
    const entry = {
      EventBusName: "reelay",
      Source: "reelay.jobs",
      DetailType: "JobDone",
      Detail: "{}",
    };
    const call = parsed(
      await one(() =>
        new EventBridgeClient(config()).send(new PutEventsCommand({ Entries: [entry] })),
      ),
    );
    expect(call).toMatchObject({
      service: "events",
      operation: "PutEvents",
      input: { Entries: [entry] },
    });
    expect(call.accessKeyId).toBe(credentials.accessKeyId);
  });

  it("SSM GetParameters", async () => {
    const names = ["/reelay/provider-key", "/reelay/webhook-secret"];
    const call = parsed(
      await one(() =>
        new SSMClient(config()).send(
          new GetParametersCommand({ Names: names, WithDecryption: true }),
        ),
      ),
    );
    expect(call).toMatchObject({
      service: "ssm",
      operation: "GetParameters",
      input: { Names: names, WithDecryption: true },
    });
  });

  it("Step Functions StartExecution and StopExecution", async () => {
    const stateMachineArn = "arn:aws:states:us-east-1:123456789012:stateMachine:reelay-poller";
    const start = parsed(
      await one(() =>
        new SFNClient(config()).send(
          new StartExecutionCommand({ stateMachineArn, name: "job-1", input: "{}" }),
        ),
      ),
    );
    expect(start).toMatchObject({
      service: "states",
      operation: "StartExecution",
      input: { stateMachineArn, name: "job-1" },
    });
    const executionArn = "arn:aws:states:us-east-1:123456789012:execution:reelay-poller:job-1";
    const stop = parsed(
      await one(() => new SFNClient(config()).send(new StopExecutionCommand({ executionArn }))),
    );
    expect(stop).toMatchObject({
      service: "states",
      operation: "StopExecution",
      input: { executionArn },
    });
  });
});

describe("parseAwsRequest: Lambda (REST-JSON)", () => {
  const functionArn = "arn:aws:lambda:us-east-1:123456789012:function:reelay-worker";

  it("Invoke with InvocationType Event names the function, URL-decoded, and leaves out the payload", async () => {
    const req = await one(() =>
      new LambdaClient(config()).send(
        new InvokeCommand({
          FunctionName: functionArn,
          InvocationType: "Event",
          Payload: Buffer.from('{"jobId":"1"}'),
        }),
      ),
    );
    expect(needsBody(req)).toBe(false);
    expect(parsed(req)).toEqual({
      accessKeyId: credentials.accessKeyId,
      service: "lambda",
      operation: "Invoke",
      input: { FunctionName: functionArn, InvocationType: "Event" },
    });
  });

  it("Invoke without an InvocationType is RequestResponse; a qualifier is kept", async () => {
    const call = parsed(
      await one(() =>
        new LambdaClient(config()).send(
          new InvokeCommand({ FunctionName: "reelay-worker", Qualifier: "live" }),
        ),
      ),
    );
    expect(call.input).toEqual({
      FunctionName: "reelay-worker",
      InvocationType: "RequestResponse",
      Qualifier: "live",
    });
  });
});

describe("parseAwsRequest: S3 (REST-XML, path-style at an IP endpoint)", () => {
  const Bucket = "reelay-media";
  const Key = "outputs/job 1/vidéo+final.mp4";

  it("PutObject with Tagging: bucket, key URL-decoded with its slashes, tagging", async () => {
    const req = await one(() =>
      s3().send(new PutObjectCommand({ Bucket, Key, Body: "bytes", Tagging: "reelay-owner=1" })),
    );
    expect(req.url.startsWith(`/${Bucket}/outputs/`)).toBe(true);
    expect(needsBody(req)).toBe(false);
    expect(parsed(req)).toEqual({
      accessKeyId: credentials.accessKeyId,
      service: "s3",
      operation: "PutObject",
      input: { bucket: Bucket, key: Key, tagging: true },
    });
  });

  it("a streamed PutObject (aws-chunked with a checksum trailer) is still PutObject", async () => {
    const Body = Readable.from([Buffer.from("x")]);
    const req = await one(() =>
      s3().send(new PutObjectCommand({ Bucket, Key: "in/x", Body, ContentLength: 1 })),
    );
    expect(req.headers["content-encoding"]).toBe("aws-chunked");
    expect(parsed(req)).toMatchObject({
      operation: "PutObject",
      input: { key: "in/x", tagging: false },
    });
  });

  it("GetObject, HeadObject and DeleteObject", async () => {
    const get = parsed(await one(() => s3().send(new GetObjectCommand({ Bucket, Key }))));
    expect(get).toMatchObject({
      operation: "GetObject",
      input: { bucket: Bucket, key: Key, tagging: false },
    });
    const head = parsed(await one(() => s3().send(new HeadObjectCommand({ Bucket, Key }))));
    expect(head).toMatchObject({ operation: "HeadObject", input: { bucket: Bucket, key: Key } });
    const del = parsed(await one(() => s3().send(new DeleteObjectCommand({ Bucket, Key }))));
    expect(del).toMatchObject({ operation: "DeleteObject", input: { bucket: Bucket, key: Key } });
  });

  it("CopyObject with TaggingDirective REPLACE names its source, the directive and the tags", async () => {
    const call = parsed(
      await one(() =>
        s3().send(
          new CopyObjectCommand({
            Bucket,
            Key: "final/job-1.mp4",
            CopySource: `${Bucket}/${encodeURIComponent("staging/job 1.mp4").replace(/%2F/g, "/")}`,
            TaggingDirective: "REPLACE",
            Tagging: "reelay-state=final",
          }),
        ),
      ),
    );
    expect(call).toMatchObject({ service: "s3", operation: "CopyObject" });
    expect(call.input).toEqual({
      bucket: Bucket,
      key: "final/job-1.mp4",
      copySource: { bucket: Bucket, key: "staging/job 1.mp4" },
      tagging: true,
      taggingDirective: "REPLACE",
    });
  });

  it("CopyObject without a directive is COPY; a leading slash and a versionId are read past", async () => {
    const call = parsed(
      await one(() =>
        s3().send(
          new CopyObjectCommand({ Bucket, Key: "b", CopySource: `/${Bucket}/a%2Bb?versionId=v1` }),
        ),
      ),
    );
    expect(call.input).toEqual({
      bucket: Bucket,
      key: "b",
      copySource: { bucket: Bucket, key: "a+b" },
      tagging: false,
      taggingDirective: "COPY",
    });
  });

  it("the multipart upload: create, part, complete, abort", async () => {
    const target = { Bucket, Key: "big/job-1.mp4" };
    const UploadId = "upload-1";
    const calls = [
      await one(() => s3().send(new CreateMultipartUploadCommand({ ...target, Tagging: "a=b" }))),
      await one(() =>
        s3().send(new UploadPartCommand({ ...target, UploadId, PartNumber: 1, Body: "p" })),
      ),
      await one(() =>
        s3().send(
          new CompleteMultipartUploadCommand({
            ...target,
            UploadId,
            MultipartUpload: { Parts: [{ ETag: '"e1"', PartNumber: 1 }] },
          }),
        ),
      ),
      await one(() => s3().send(new AbortMultipartUploadCommand({ ...target, UploadId }))),
    ].map(parsed);
    expect(calls.map((call) => call.operation)).toEqual([
      "CreateMultipartUpload",
      "UploadPart",
      "CompleteMultipartUpload",
      "AbortMultipartUpload",
    ]);
    for (const call of calls) expect(call.input).toMatchObject({ bucket: Bucket, key: target.Key });
    expect(calls.map((call) => call.input.tagging)).toEqual([true, false, false, false]);
  });

  it("ListObjectsV2 with a prefix, and PutObjectTagging", async () => {
    const list = parsed(
      await one(() => s3().send(new ListObjectsV2Command({ Bucket, Prefix: "outputs/job 1/" }))),
    );
    expect(list).toMatchObject({
      operation: "ListObjectsV2",
      input: { bucket: Bucket, prefix: "outputs/job 1/" },
    });
    expect(list.input.key).toBeUndefined();
    const tag = parsed(
      await one(() =>
        s3().send(
          new PutObjectTaggingCommand({
            Bucket,
            Key,
            Tagging: { TagSet: [{ Key: "a", Value: "b" }] },
          }),
        ),
      ),
    );
    expect(tag).toMatchObject({
      operation: "PutObjectTagging",
      input: { bucket: Bucket, key: Key, tagging: true },
    });
  });

  it("DeleteObjects reads its keys from the XML body, entities decoded", async () => {
    const keys = ["a&b", "line\nbreak", "<odd> 'quoted' \"key\""];
    const req = await one(() =>
      s3().send(
        new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys.map((k) => ({ Key: k })) } }),
      ),
    );
    expect(needsBody(req)).toBe(true);
    expect(parsed(req)).toMatchObject({
      operation: "DeleteObjects",
      input: { bucket: Bucket, deleteKeys: keys },
    });
  });

  it("presigned GetObject and PutObject URLs parse like signed requests", async () => {
    const getUrl = await getSignedUrl(s3(), new GetObjectCommand({ Bucket, Key }), {
      expiresIn: 600,
    });
    const get = await one(() => fetch(getUrl));
    expect(get.headers.authorization).toBeUndefined();
    expect(isPresigned(get)).toBe(true);
    expect(parsed(get)).toEqual({
      accessKeyId: credentials.accessKeyId,
      service: "s3",
      operation: "GetObject",
      input: { bucket: Bucket, key: Key, tagging: false },
    });
    const putUrl = await getSignedUrl(s3(), new PutObjectCommand({ Bucket, Key: "up/x" }), {
      expiresIn: 600,
    });
    const put = await one(() => fetch(putUrl, { method: "PUT", body: "x" }));
    expect(parsed(put)).toMatchObject({ operation: "PutObject", input: { key: "up/x" } });
    expect(isPresigned(await one(() => s3().send(new GetObjectCommand({ Bucket, Key }))))).toBe(
      false,
    );
  });
});

/** A request signed by the SDK's signer, for the services no client in node_modules speaks. */
async function signed(
  service: string,
  method: string,
  path: string,
  body: string,
): Promise<RawRequest> {
  const signer = new SignatureV4({ credentials, region, service, sha256: Sha256 });
  const request = await signer.sign({
    method,
    protocol: "http:",
    hostname: "127.0.0.1",
    path,
    headers: { host: "127.0.0.1:4566", "content-type": "application/json" },
    body,
  });
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]),
  );
  return { method, url: path, headers, body: Buffer.from(body) };
}

describe("parseAwsRequest: X-Ray (REST-JSON, signed by the SDK's signer)", () => {
  it("PutTraceSegments and PutTelemetryRecords, with the JSON body as input", async () => {
    const segments = { TraceSegmentDocuments: ['{"name":"reelay"}'] };
    const req = await signed("xray", "POST", "/TraceSegments", JSON.stringify(segments));
    expect(needsBody(req)).toBe(true);
    expect(parseAwsRequest(req)).toEqual({
      accessKeyId: credentials.accessKeyId,
      service: "xray",
      operation: "PutTraceSegments",
      input: segments,
    });
    const telemetry = await signed("xray", "POST", "/TelemetryRecords", '{"TelemetryRecords":[]}');
    expect(parseAwsRequest(telemetry).operation).toBe("PutTelemetryRecords");
    expect(await verifySignature(telemetry, secretFor)).toEqual({
      ok: true,
      accessKeyId: credentials.accessKeyId,
    });
  });
});

describe("parseAwsRequest refuses what it cannot name", () => {
  const refusal = (req: RawRequest) => {
    try {
      parseAwsRequest(req);
    } catch (error) {
      expect(error).toBeInstanceOf(UnparsedRequest);
      return (error as Error).message;
    }
    throw new Error(`parsed ${req.method} ${req.url}`);
  };

  it("an unsigned request, a malformed signature, a service without a stand-in", async () => {
    expect(refusal({ method: "GET", url: "/b/k", headers: {}, body: Buffer.alloc(0) })).toMatch(
      /GET \/b\/k: .*no SigV4 signature/,
    );
    expect(
      refusal({
        method: "GET",
        url: "/b/k",
        headers: { authorization: "AWS AKID:sig" },
        body: Buffer.alloc(0),
      }),
    ).toMatch(/not AWS4-HMAC-SHA256/);
    expect(refusal(await signed("sqs", "POST", "/", "{}"))).toMatch(/signed for 'sqs'/);
  });

  it("JSON calls without their target, with another service's target, with a body that is not JSON", async () => {
    const req = await one(() => dynamo().send(new GetItemCommand({ TableName: table, Key: key })));
    const { "x-amz-target": _target, ...untargeted } = req.headers;
    expect(refusal({ ...req, headers: untargeted })).toMatch(
      /POST \/: a dynamodb request without an X-Amz-Target/,
    );
    expect(
      refusal({ ...req, headers: { ...untargeted, "smithy-protocol": "rpc-v2-cbor" } }),
    ).toMatch(/CBOR/);
    expect(
      refusal({ ...req, headers: { ...req.headers, "x-amz-target": "AmazonSSM.GetParameters" } }),
    ).toMatch(/'AmazonSSM.GetParameters' is not a dynamodb operation/);
    expect(refusal({ ...req, body: Buffer.alloc(0) })).toMatch(/not JSON/);
  });

  it("S3 requests outside the table: unknown subresources, no bucket, list-type 1, a copy onto tagging", async () => {
    const get = await one(() => s3().send(new GetObjectCommand({ Bucket: "b", Key: "k" })));
    expect(refusal({ ...get, url: "/b?versions" })).toMatch(
      /GET \/b: S3 query parameter 'versions'/,
    );
    expect(refusal({ ...get, url: "/b/k?acl" })).toMatch(/'acl'/);
    expect(refusal({ ...get, url: "/" })).toMatch(/names no bucket/);
    expect(refusal({ ...get, url: "/b?list-type=1" })).toMatch(/list-type other than 2/);
    expect(refusal({ ...get, method: "POST", url: "/b/k" })).toMatch(
      /no S3 operation is POST object/,
    );
    const copy = {
      ...get,
      method: "PUT",
      url: "/b/k?tagging",
      headers: { ...get.headers, "x-amz-copy-source": "b/a" },
    };
    expect(refusal(copy)).toMatch(/PUT object tagging with a copy source/);
    const directive = {
      ...copy,
      url: "/b/k",
      headers: { ...copy.headers, "x-amz-tagging-directive": "KEEP" },
    };
    expect(refusal(directive)).toMatch(/KEEP/);
    expect(refusal({ ...get, method: "POST", url: "/b?delete" })).toMatch(
      /DeleteObjects without its <Delete>/,
    );
  });

  it("Lambda and X-Ray paths other than the ones stood in for", async () => {
    const invoke = await one(() =>
      new LambdaClient(config()).send(new InvokeCommand({ FunctionName: "f" })),
    );
    expect(
      refusal({ ...invoke, method: "GET", url: "/2015-03-31/functions/f/configuration" }),
    ).toMatch(/GET \/2015-03-31\/functions\/f\/configuration: not Lambda's Invoke/);
    expect(
      refusal({ ...invoke, headers: { ...invoke.headers, "x-amz-invocation-type": "Later" } }),
    ).toMatch(/Later/);
    expect(refusal(await signed("xray", "POST", "/Traces", "{}"))).toMatch(
      /POST \/Traces: not an X-Ray operation/,
    );
  });
});

describe("errors: answers the real SDK clients read as AccessDenied", () => {
  async function thrown(send: () => Promise<unknown>): Promise<any> {
    try {
      await send();
    } catch (error) {
      return error;
    }
    throw new Error("the call succeeded");
  }
  const message = "User: arn:aws:sts::123456789012:assumed-role/worker/fn is not authorized";

  it.each([
    [
      "dynamodb",
      "GetItem",
      400,
      () => dynamo().send(new GetItemCommand({ TableName: table, Key: key })),
    ],
    [
      "events",
      "PutEvents",
      400,
      () =>
        new EventBridgeClient(config()).send(new PutEventsCommand({ Entries: [{ Detail: "{}" }] })),
    ],
    [
      "ssm",
      "GetParameters",
      400,
      () => new SSMClient(config()).send(new GetParametersCommand({ Names: ["/a"] })),
    ],
    [
      "states",
      "StartExecution",
      400,
      () => new SFNClient(config()).send(new StartExecutionCommand({ stateMachineArn: "arn:sm" })),
    ],
    [
      "lambda",
      "Invoke",
      403,
      () => new LambdaClient(config()).send(new InvokeCommand({ FunctionName: "f" })),
    ],
  ] as const)(
    "%s %s: AccessDeniedException, status %i",
    async (service, operation, status, send) => {
      answer = accessDenied({ service, operation }, message);
      const error = await thrown(send);
      expect(error.name).toBe("AccessDeniedException");
      expect(error.message).toBe(message);
      expect(error.$metadata.httpStatusCode).toBe(status);
      expect(error.$fault).toBe("client");
    },
  );

  it("S3 PutObject: AccessDenied, 403, with S3's request id", async () => {
    answer = accessDenied({ service: "s3", operation: "PutObject" }, message);
    const error = await thrown(() =>
      s3().send(new PutObjectCommand({ Bucket: "b", Key: "k", Body: "x" })),
    );
    expect(error).toBeInstanceOf(S3ServiceException);
    expect(error.name).toBe("AccessDenied");
    expect(error.message).toBe(message);
    expect(error.$metadata.httpStatusCode).toBe(403);
    expect(error.$metadata.requestId).toBe(answer.headers["x-amz-request-id"]);
  });

  it("S3 HeadObject: no body, a 403 error", async () => {
    answer = accessDenied({ service: "s3", operation: "HeadObject" }, message);
    expect(answer.body).toBe("");
    const error = await thrown(() => s3().send(new HeadObjectCommand({ Bucket: "b", Key: "k" })));
    expect(error).toBeInstanceOf(S3ServiceException);
    expect(error.$metadata.httpStatusCode).toBe(403);
    expect(error.$fault).toBe("client");
  });

  it("awsError names other errors as the services do: DynamoDB's modelled exception, S3's NoSuchKey", async () => {
    answer = awsError("dynamodb", 400, "ResourceNotFoundException", "Requested resource not found");
    const missing = await thrown(() =>
      dynamo().send(new GetItemCommand({ TableName: table, Key: key })),
    );
    expect(missing).toBeInstanceOf(ResourceNotFoundException);
    expect(missing.message).toBe("Requested resource not found");
    answer = awsError("s3", 404, "NoSuchKey", "The specified key does not exist.");
    const noKey = await thrown(() => s3().send(new GetObjectCommand({ Bucket: "b", Key: "k" })));
    expect(noKey.name).toBe("NoSuchKey");
    expect(noKey.$metadata.httpStatusCode).toBe(404);
  });

  it("X-Ray and Lambda answer REST-JSON: the error type in x-amzn-ErrorType", () => {
    const xray = accessDenied({ service: "xray", operation: "PutTraceSegments" }, message);
    expect(xray.status).toBe(403);
    expect(xray.headers["x-amzn-errortype"]).toBe("AccessDeniedException");
    expect(JSON.parse(xray.body)).toEqual({ Message: message });
  });
});

describe("verifySignature: the SDK's signer, run again with the key's secret", () => {
  const ok = { ok: true, accessKeyId: credentials.accessKeyId };
  const verify = (req: RawRequest, now?: Date) =>
    verifySignature(asGatewaySees(req), secretFor, now);
  const wrongSecret = (id: string) =>
    id === credentials.accessKeyId ? "not-the-secret" : undefined;

  it("requests the clients signed verify: JSON 1.0/1.1, REST-JSON with an escaped path, S3", async () => {
    const requests = [
      await one(() => dynamo().send(new GetItemCommand({ TableName: table, Key: key }))),
      await one(() => new SSMClient(config()).send(new GetParametersCommand({ Names: ["/a b"] }))),
      await one(() =>
        new LambdaClient(config()).send(
          new InvokeCommand({
            FunctionName: "arn:aws:lambda:us-east-1:1:function:f",
            InvocationType: "Event",
          }),
        ),
      ),
      await one(() =>
        s3().send(
          new PutObjectCommand({ Bucket: "b", Key: "a b/c+d é", Body: "x", Tagging: "t=1" }),
        ),
      ),
      await one(() => s3().send(new ListObjectsV2Command({ Bucket: "b", Prefix: "p q/" }))),
      await one(() =>
        s3().send(new DeleteObjectsCommand({ Bucket: "b", Delete: { Objects: [{ Key: "k" }] } })),
      ),
      await one(() => s3().send(new CreateMultipartUploadCommand({ Bucket: "b", Key: "k" }))),
    ];
    for (const req of requests) expect(await verify(req)).toEqual(ok);
  });

  it("a streamed S3 body (STREAMING-UNSIGNED-PAYLOAD-TRAILER) verifies on its headers", async () => {
    const Body = Readable.from([Buffer.from("x")]);
    const req = await one(() =>
      s3().send(new PutObjectCommand({ Bucket: "b", Key: "k", Body, ContentLength: 1 })),
    );
    expect(req.headers["x-amz-content-sha256"]).toBe("STREAMING-UNSIGNED-PAYLOAD-TRAILER");
    expect(await verify(req)).toEqual(ok);
  });

  it("a request signed with a session token verifies: the token is one of its signed headers", async () => {
    const session = { ...credentials, sessionToken: "role-session-token" };
    const client = new DynamoDBClient({ ...config(), credentials: session });
    const req = await one(() => client.send(new GetItemCommand({ TableName: table, Key: key })));
    expect(req.headers["x-amz-security-token"]).toBe("role-session-token");
    expect(await verify(req)).toEqual(ok);
    const forged = { ...req, headers: { ...req.headers, "x-amz-security-token": "another" } };
    expect(await verify(forged)).toMatchObject({ ok: false });
  });

  it("the wrong secret, an unknown key or no signature at all do not", async () => {
    const req = await one(() => dynamo().send(new GetItemCommand({ TableName: table, Key: key })));
    expect(await verifySignature(req, wrongSecret)).toMatchObject({
      ok: false,
      reason: /does not match/,
    });
    expect(await verifySignature(req, () => undefined)).toMatchObject({
      ok: false,
      reason: /not one the rehearsal issued/,
    });
    const { authorization: _a, ...unsigned } = req.headers;
    expect(await verify({ ...req, headers: unsigned })).toMatchObject({
      ok: false,
      reason: /not signed/,
    });
  });

  it("a changed signed header, body, path or query does not; an added unsigned header does", async () => {
    const get = await one(() => dynamo().send(new GetItemCommand({ TableName: table, Key: key })));
    const retarget = {
      ...get,
      headers: { ...get.headers, "x-amz-target": "DynamoDB_20120810.DeleteItem" },
    };
    expect(await verify(retarget)).toMatchObject({ ok: false, reason: /does not match/ });
    const rebody = { ...get, body: Buffer.from(get.body.toString().replace("job#1", "job#2")) };
    expect(await verify(rebody)).toMatchObject({ ok: false, reason: /body does not match/ });
    const { host: _host, ...hostless } = get.headers;
    expect(await verify({ ...get, headers: hostless })).toMatchObject({
      ok: false,
      reason: /'host' is missing/,
    });
    expect(
      await verify({ ...get, headers: { ...get.headers, "x-forwarded-for": "10.0.0.1" } }),
    ).toEqual(ok);
    const put = await one(() =>
      s3().send(new PutObjectCommand({ Bucket: "b", Key: "mine", Body: "x" })),
    );
    expect(await verify({ ...put, url: put.url.replace("/mine", "/theirs") })).toMatchObject({
      ok: false,
    });
    const list = await one(() =>
      s3().send(new ListObjectsV2Command({ Bucket: "b", Prefix: "mine/" })),
    );
    expect(await verify({ ...list, url: list.url.replace("mine", "all") })).toMatchObject({
      ok: false,
    });
  });

  it("a request whose time is far from the gateway's clock does not", async () => {
    const req = await one(() => dynamo().send(new GetItemCommand({ TableName: table, Key: key })));
    const later = new Date(Date.now() + 60 * 60 * 1000);
    expect(await verify(req, later)).toMatchObject({ ok: false, reason: /more than 15 minutes/ });
  });

  it("presigned URLs verify; a changed key, a changed expiry or an expired URL do not", async () => {
    const url = await getSignedUrl(s3(), new GetObjectCommand({ Bucket: "b", Key: "a b/c" }), {
      expiresIn: 600,
    });
    const req = await one(() => fetch(url));
    expect(await verify(req)).toEqual(ok);
    expect(await verifySignature(req, wrongSecret)).toMatchObject({ ok: false });
    expect(await verify({ ...req, url: req.url.replace("/c?", "/d?") })).toMatchObject({
      ok: false,
    });
    expect(
      await verify({ ...req, url: req.url.replace("X-Amz-Expires=600", "X-Amz-Expires=6000") }),
    ).toMatchObject({
      ok: false,
    });
    const later = new Date(Date.now() + 601 * 1000);
    expect(await verify(req, later)).toMatchObject({ ok: false, reason: /expired/ });
    const putUrl = await getSignedUrl(s3(), new PutObjectCommand({ Bucket: "b", Key: "up" }), {
      expiresIn: 60,
    });
    expect(await verify(await one(() => fetch(putUrl, { method: "PUT", body: "x" })))).toEqual(ok);
  });
});
