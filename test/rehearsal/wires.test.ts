/**
 * The rehearsal's wires over a small template shaped like reelay's synthesized one (the resource
 * shapes copied from a synth): which function each request, event, object drop and schedule
 * reaches, and with what event. The functions are faked here, recording what they were handed,
 * because running them is another part of the rehearsal (the function runner).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventBridgeError, EventBus } from "../../rehearsal/wires/bus.ts";
import { startFunctionUrls } from "../../rehearsal/wires/function-url.ts";
import { startHttpApi, type HttpApi } from "../../rehearsal/wires/http-api.ts";
import { BucketNotifications, encodeKey } from "../../rehearsal/wires/notifications.ts";
import { compilePattern } from "../../rehearsal/wires/pattern.ts";
import { periodOf, Scheduler, scheduledEvent, schedules } from "../../rehearsal/wires/schedule.ts";
import type { Invoke, InvokeAsync } from "../../rehearsal/wires/types.ts";

const fn = (handler: string) => ({
  Type: "AWS::Lambda::Function",
  Properties: { Handler: handler, Runtime: "nodejs20.x" },
});
const arnOf = (id: string) => ({ "Fn::GetAtt": [id, "Arn"] });

function route(id: string, routeKey: string, functionId: string, timeout?: number) {
  return {
    [`${id}Integration`]: {
      Type: "AWS::ApiGatewayV2::Integration",
      Properties: {
        ApiId: { Ref: "Api" },
        IntegrationType: "AWS_PROXY",
        IntegrationUri: arnOf(functionId),
        PayloadFormatVersion: "2.0",
        ...(timeout ? { TimeoutInMillis: timeout } : {}),
      },
    },
    [id]: {
      Type: "AWS::ApiGatewayV2::Route",
      Properties: {
        ApiId: { Ref: "Api" },
        AuthorizationType: "NONE",
        RouteKey: routeKey,
        Target: { "Fn::Join": ["", ["integrations/", { Ref: `${id}Integration` }]] },
      },
    },
  };
}

const TEMPLATE = {
  Resources: {
    ApiFunction: fn("functions/api.handler"),
    McpFunction: fn("functions/mcp.handler"),
    DropFunction: fn("functions/drop.handler"),
    WebhookFunction: fn("functions/webhook.handler"),
    WebhookSweepFunction: fn("functions/webhook.sweep"),
    DispatchFunction: fn("functions/dispatch.handler"),
    Api: {
      Type: "AWS::ApiGatewayV2::Api",
      Properties: {
        Name: "test-reelay-Api",
        ProtocolType: "HTTP",
        CorsConfiguration: { AllowHeaders: ["*"], AllowMethods: ["*"], AllowOrigins: ["*"] },
      },
    },
    ApiDefaultStage: {
      Type: "AWS::ApiGatewayV2::Stage",
      Properties: { ApiId: { Ref: "Api" }, AutoDeploy: true, StageName: "$default" },
    },
    ...route("RouteHealthz", "GET /healthz", "ApiFunction"),
    ...route("RouteOpenapi", "GET /openapi.json", "ApiFunction"),
    ...route("RouteV1", "ANY /v1/{proxy+}", "ApiFunction"),
    ...route("RoutePostMcp", "POST /mcp", "McpFunction"),
    ...route("RouteGetMcp", "GET /mcp", "McpFunction"),
    ...route("RouteDeleteMcp", "DELETE /mcp", "McpFunction"),
    // Not in reelay's API: a route whose integration gives up after 50 ms, to see the 503.
    ...route("RouteSlow", "GET /slow", "ApiFunction", 50),
    Bus: { Type: "AWS::Events::EventBus", Properties: { Name: "reelay-test" } },
    WebhookRule: {
      Type: "AWS::Events::Rule",
      Properties: {
        EventBusName: { Ref: "Bus" },
        EventPattern: {
          source: ["reelay"],
          "detail-type": [
            "Generation Succeeded",
            "Generation Failed",
            "Generation Cancelled",
            "Batch Completed",
          ],
        },
        State: "ENABLED",
        Targets: [{ Arn: arnOf("WebhookFunction"), Id: "Target0" }],
      },
    },
    WebhookSchedule: {
      Type: "AWS::Events::Rule",
      Properties: {
        ScheduleExpression: "rate(1 minute)",
        State: "ENABLED",
        Targets: [{ Arn: arnOf("WebhookSweepFunction"), Id: "Target0" }],
      },
    },
    DispatchSchedule: {
      Type: "AWS::Events::Rule",
      Properties: {
        ScheduleExpression: "rate(1 minute)",
        State: "ENABLED",
        Targets: [{ Arn: arnOf("DispatchFunction"), Id: "Target0" }],
      },
    },
    Bucket: { Type: "AWS::S3::Bucket", Properties: {} },
    BucketNotificationsHandler: fn("index.handler"),
    BucketNotifications: {
      Type: "Custom::S3BucketNotifications",
      Properties: {
        ServiceToken: arnOf("BucketNotificationsHandler"),
        BucketName: { Ref: "Bucket" },
        NotificationConfiguration: {
          LambdaFunctionConfigurations: [
            {
              Events: ["s3:ObjectCreated:*"],
              Filter: { Key: { FilterRules: [{ Name: "prefix", Value: "inbox/" }] } },
              LambdaFunctionArn: arnOf("DropFunction"),
            },
          ],
        },
        Managed: true,
      },
    },
  },
};

interface Call {
  functionId: string;
  event: any;
}

/** A fake function runner: records each call and answers with what `answers` says. */
function fakeRunner() {
  const calls: Call[] = [];
  let answer: (call: Call) => Promise<Awaited<ReturnType<Invoke>>> = async () => ({
    ok: true,
    payload: { statusCode: 200, body: "ok" },
  });
  const invoke: Invoke = (functionId, event) => {
    const call = { functionId, event: event as any };
    calls.push(call);
    return answer(call);
  };
  const invokeAsync: InvokeAsync = (functionId, event) => {
    calls.push({ functionId, event: event as any });
  };
  return {
    calls,
    invoke,
    invokeAsync,
    answerWith: (next: typeof answer) => {
      answer = next;
    },
  };
}

const OPTS = { region: "eu-west-1", accountId: "123456789012" };

describe("the HTTP API", () => {
  const runner = fakeRunner();
  let api: HttpApi;
  const last = () => runner.calls.at(-1)!;

  beforeAll(async () => {
    api = await startHttpApi(TEMPLATE, runner.invoke, OPTS);
  });
  afterAll(() => api.close());

  it("hands GET /healthz to the API function as a payload format 2.0 event", async () => {
    const res = await fetch(`${api.url}/healthz`, {
      headers: { "X-Trace": "a", Cookie: "s=1; t=2" },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ok");
    const { functionId, event } = last();
    expect(functionId).toBe("ApiFunction");
    expect(event).toMatchObject({
      version: "2.0",
      routeKey: "GET /healthz",
      rawPath: "/healthz",
      rawQueryString: "",
      cookies: ["s=1", "t=2"],
      isBase64Encoded: false,
      requestContext: {
        accountId: "123456789012",
        routeKey: "GET /healthz",
        stage: "$default",
        http: { method: "GET", path: "/healthz", protocol: "HTTP/1.1", sourceIp: "127.0.0.1" },
      },
    });
    expect(event.headers["x-trace"]).toBe("a");
    expect(event.headers.cookie).toBeUndefined();
    expect(event.headers["x-forwarded-for"]).toBe("127.0.0.1");
    expect(event.requestContext.apiId).toMatch(/^[a-z]{10}$/);
    expect(event.requestContext.time).toMatch(/^\d\d\/\w{3}\/\d{4}:\d\d:\d\d:\d\d \+0000$/);
    expect(event.requestContext.timeEpoch).toBeTypeOf("number");
    expect(event.body).toBeUndefined();
    expect(event.pathParameters).toBeUndefined();
    expect(res.headers.get("apigw-requestid")).toBe(event.requestContext.requestId);
  });

  it("routes POST /v1/... to ANY /v1/{proxy+}, with the proxy path and the query comma-joined", async () => {
    const res = await fetch(`${api.url}/v1/video/generations?x=1&x=2&y=a%20b`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "a cat" }),
    });
    expect(res.status).toBe(200);
    const { functionId, event } = last();
    expect(functionId).toBe("ApiFunction");
    expect(event.routeKey).toBe("ANY /v1/{proxy+}");
    expect(event.pathParameters).toEqual({ proxy: "video/generations" });
    expect(event.rawQueryString).toBe("x=1&x=2&y=a%20b");
    expect(event.queryStringParameters).toEqual({ x: "1,2", y: "a b" });
    expect(event.body).toBe('{"prompt":"a cat"}');
    expect(event.isBase64Encoded).toBe(false);
  });

  it("sends POST /mcp to the MCP function, and an unknown path is API Gateway's 404", async () => {
    await fetch(`${api.url}/mcp`, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(last().functionId).toBe("McpFunction");
    expect(last().event.routeKey).toBe("POST /mcp");
    const before = runner.calls.length;
    for (const [method, path] of [
      ["GET", "/nowhere"],
      ["PUT", "/mcp"],
      ["GET", "/v1"],
    ] as const) {
      const res = await fetch(`${api.url}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.json()).toEqual({ message: "Not Found" });
    }
    expect(runner.calls.length).toBe(before);
  });

  it("base64-encodes a multipart body, which decodes to the bytes sent", async () => {
    const form = new FormData();
    const bytes = new Uint8Array([0, 255, 1, 254, 137, 80, 78, 71]);
    form.append("file", new Blob([bytes], { type: "image/png" }), "a.png");
    const sent = new Request(`${api.url}/v1/uploads`, { method: "POST", body: form });
    const raw = Buffer.from(await sent.clone().arrayBuffer());
    await fetch(sent);
    const { event } = last();
    expect(event.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body, "base64").equals(raw)).toBe(true);
  });

  it("maps a response's status, headers, cookies and base64 body back", async () => {
    const png = Buffer.from([137, 80, 78, 71, 0, 1, 2]);
    runner.answerWith(async () => ({
      ok: true,
      payload: {
        statusCode: 201,
        headers: { "Content-Type": "image/png", "X-Id": 7 },
        cookies: ["a=1; Path=/", "b=2"],
        body: png.toString("base64"),
        isBase64Encoded: true,
      },
    }));
    const res = await fetch(`${api.url}/openapi.json`);
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-id")).toBe("7");
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2"]);
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
  });

  it("answers a value without statusCode as a 200 JSON body", async () => {
    runner.answerWith(async () => ({ ok: true, payload: { hello: "world" } }));
    const res = await fetch(`${api.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({ hello: "world" });
  });

  it("answers a function error with API Gateway's 500", async () => {
    runner.answerWith(async () => ({ ok: false, errorType: "Error", errorMessage: "boom" }));
    const res = await fetch(`${api.url}/healthz`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: "Internal Server Error" });
  });

  it("answers 503 when the integration outruns its timeout", async () => {
    runner.answerWith(
      () => new Promise((resolve) => setTimeout(() => resolve({ ok: true, payload: 1 }), 500)),
    );
    const res = await fetch(`${api.url}/slow`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ message: "Service Unavailable" });
  });

  it("refuses a body over 10 MB with 413, without calling the function", async () => {
    const before = runner.calls.length;
    const res = await fetch(`${api.url}/v1/uploads`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: Buffer.alloc(10 * 1024 * 1024 + 1),
    });
    expect(res.status).toBe(413);
    expect(runner.calls.length).toBe(before);
  });

  it("answers CORS preflights itself, and counts every request", async () => {
    const res = await fetch(`${api.url}/v1/jobs`, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "POST" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(api.requests()).toBeGreaterThanOrEqual(12);
  });
});

describe("the Function URLs", () => {
  const urlTemplate = {
    Resources: {
      SimulatorFunction: fn("functions/simulator.handler"),
      SimulatorFunctionUrl: {
        Type: "AWS::Lambda::Url",
        Properties: { AuthType: "NONE", TargetFunctionArn: arnOf("SimulatorFunction") },
      },
    },
  };
  const account = { accountId: "123456789012", region: "us-east-1" };

  it("hands a request to the URL's function as a payload format 2.0 event over http, and maps its base64 answer back", async () => {
    const seen: Record<string, any>[] = [];
    const invoke: Invoke = async (_id, event) => {
      seen.push(event as Record<string, any>);
      return {
        ok: true,
        payload: {
          statusCode: 201,
          headers: { "content-type": "video/mp4" },
          body: Buffer.from("bytes").toString("base64"),
          isBase64Encoded: true,
        },
      };
    };
    const [url, ...more] = await startFunctionUrls(urlTemplate, invoke, account);
    try {
      expect(more).toEqual([]);
      expect(url?.logicalId).toBe("SimulatorFunctionUrl");
      expect(url?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const res = await fetch(`${url?.url}v1/video/tasks/t1?x=1`, {
        headers: { authorization: "Bearer k" },
      });
      expect(res.status).toBe(201);
      expect(res.headers.get("content-type")).toBe("video/mp4");
      expect(await res.text()).toBe("bytes");
      expect(seen[0]).toMatchObject({
        version: "2.0",
        routeKey: "$default",
        rawPath: "/v1/video/tasks/t1",
        rawQueryString: "x=1",
        headers: { authorization: "Bearer k", "x-forwarded-proto": "http" },
        requestContext: { domainName: new URL(String(url?.url)).host, http: { method: "GET" } },
      });
    } finally {
      await url?.close();
    }
  });

  it("answers a function error with a 502, as a Function URL does", async () => {
    const failing: Invoke = async () => ({ ok: false, errorType: "Error", errorMessage: "boom" });
    const [url] = await startFunctionUrls(urlTemplate, failing, account);
    try {
      expect((await fetch(String(url?.url))).status).toBe(502);
    } finally {
      await url?.close();
    }
  });
});

describe("the event bus", () => {
  const entry = (detailType: string, source = "reelay") => ({
    Source: source,
    DetailType: detailType,
    Detail: JSON.stringify({ jobId: "j1", status: "succeeded" }),
    EventBusName: "reelay-test",
  });

  it("delivers a Generation Succeeded event to the rule's target, as EventBridge builds it", () => {
    const runner = fakeRunner();
    const bus = new EventBus(TEMPLATE, runner.invokeAsync, OPTS);
    const result = bus.putEvents({ Entries: [entry("Generation Succeeded")] });
    expect(result.FailedEntryCount).toBe(0);
    const eventId = result.Entries[0]!.EventId!;
    expect(runner.calls).toEqual([
      {
        functionId: "WebhookFunction",
        event: {
          version: "0",
          id: eventId,
          "detail-type": "Generation Succeeded",
          source: "reelay",
          account: "123456789012",
          time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
          region: "eu-west-1",
          resources: [],
          detail: { jobId: "j1", status: "succeeded" },
        },
      },
    ]);
    expect(bus.matched()).toEqual([{ rule: "WebhookRule", target: "WebhookFunction", eventId }]);
  });

  it("does not deliver another detail-type, another source, or an event on another bus", () => {
    const runner = fakeRunner();
    const bus = new EventBus(TEMPLATE, runner.invokeAsync, OPTS);
    const { Source, DetailType, Detail } = entry("Generation Succeeded");
    const result = bus.putEvents({
      Entries: [
        entry("Generation Started"),
        entry("Generation Succeeded", "someone.else"),
        { Source, DetailType, Detail },
        {
          ...entry("Generation Succeeded"),
          EventBusName: "arn:aws:events:eu-west-1:123456789012:event-bus/elsewhere",
        },
      ],
    });
    expect(result.FailedEntryCount).toBe(0);
    expect(runner.calls).toEqual([]);
    expect(bus.events()).toBe(4);
    expect(bus.unknownBusEvents().map((e) => e.bus)).toEqual(["elsewhere"]);
  });

  it("fails entries without Source, DetailType or Detail as EventBridge does", () => {
    const bus = new EventBus(TEMPLATE, fakeRunner().invokeAsync, OPTS);
    const result = bus.putEvents({
      Entries: [
        { DetailType: "x", Detail: "{}" },
        { Source: "reelay", Detail: "{}" },
        { Source: "reelay", DetailType: "x" },
        { Source: "reelay", DetailType: "x", Detail: "[1]" },
        entry("Batch Completed"),
      ],
    });
    expect(result.FailedEntryCount).toBe(4);
    expect(result.Entries.map((e) => e.ErrorCode)).toEqual([
      "InvalidArgument",
      "InvalidArgument",
      "InvalidArgument",
      "MalformedDetail",
      undefined,
    ]);
    expect(result.Entries[0]!.ErrorMessage).toBe(
      "Parameter Source is not valid. Reason: Source is a required argument.",
    );
    expect(bus.events()).toBe(1);
  });

  it("refuses a request over 256 KB, counted as EventBridge counts an entry", () => {
    const runner = fakeRunner();
    const bus = new EventBus(TEMPLATE, runner.invokeAsync, OPTS);
    // Source (6 bytes) + DetailType (20) + Detail ({"padding":"..."}: 14 + the padding).
    const sized = (bytes: number) => ({
      ...entry("Generation Succeeded"),
      Detail: JSON.stringify({ padding: "x".repeat(bytes - 40) }),
    });
    expect(() => bus.putEvents({ Entries: [sized(256 * 1024 + 1)] })).toThrow(EventBridgeError);
    expect(() => bus.putEvents({ Entries: [sized(256 * 1024 + 1)] })).toThrow(
      expect.objectContaining({
        name: "ValidationException",
        message: "Total size of the entries in the request is over the limit.",
      }),
    );
    expect(() => bus.putEvents({ Entries: [sized(200 * 1024), sized(60 * 1024)] })).toThrow(
      /over the limit/,
    );
    expect(runner.calls).toEqual([]);
    expect(bus.events()).toBe(0);
    // The refused entry is still the largest seen: the report flags it as past the limit.
    expect(bus.largestEntry()).toEqual({
      bytes: 256 * 1024 + 1,
      where: 'a "Generation Succeeded" entry',
    });
    // Exactly 256 KB: accepted, and billed as 4 events of 64 KB.
    expect(bus.putEvents({ Entries: [sized(256 * 1024)] }).FailedEntryCount).toBe(0);
    expect(bus.billedEvents()).toBe(4);
  });

  it("throws when built over a pattern operator it does not implement, naming it", () => {
    const rule = TEMPLATE.Resources.WebhookRule;
    const template = {
      Resources: {
        ...TEMPLATE.Resources,
        WebhookRule: {
          ...rule,
          Properties: {
            ...rule.Properties,
            EventPattern: { detail: { ip: [{ cidr: "10.0.0.0/8" }] } },
          },
        },
      },
    };
    expect(() => new EventBus(template, fakeRunner().invokeAsync, OPTS)).toThrow(
      /WebhookRule at detail at ip: the event pattern operator "cidr" is not implemented/,
    );
  });

  it("matches the pattern operators it implements as EventBridge does", () => {
    const matches = compilePattern(
      {
        source: [{ prefix: "reel" }],
        "detail-type": [{ "anything-but": ["Generation Failed"] }],
        detail: {
          status: ["succeeded", "cancelled"],
          costUsd: [{ numeric: [">", 0, "<=", 5] }],
          tags: ["video"],
          error: [{ exists: false }],
          model: { name: [{ suffix: "-2" }] },
        },
      },
      "test",
    );
    const event = {
      source: "reelay",
      "detail-type": "Generation Succeeded",
      detail: {
        status: "succeeded",
        costUsd: 0.4,
        tags: ["image", "video"],
        model: { name: "veo-2" },
      },
    };
    expect(matches(event)).toBe(true);
    const detail = event.detail;
    expect(matches({ ...event, source: "other" })).toBe(false);
    expect(matches({ ...event, "detail-type": "Generation Failed" })).toBe(false);
    expect(matches({ ...event, detail: { ...detail, status: "failed" } })).toBe(false);
    expect(matches({ ...event, detail: { ...detail, costUsd: 6 } })).toBe(false);
    expect(matches({ ...event, detail: { ...detail, costUsd: "0.4" } })).toBe(false);
    expect(matches({ ...event, detail: { ...detail, tags: ["image"] } })).toBe(false);
    expect(matches({ ...event, detail: { ...detail, error: "boom" } })).toBe(false);
    expect(matches({ ...event, detail: { ...detail, model: { name: "veo-3" } } })).toBe(false);
  });
});

describe("the bucket notifications", () => {
  const bucketNames = { Bucket: "test-reelay-bucket-abc123" };

  it("notifies the drop function of inbox/ objects, the key encoded as S3 encodes it", () => {
    const runner = fakeRunner();
    const notifications = new BucketNotifications(TEMPLATE, runner.invokeAsync, {
      bucketNames,
      region: "eu-west-1",
    });
    const created = {
      bucket: bucketNames.Bucket,
      size: 42,
      eTag: '"abc"',
      eventName: "Put",
    } as const;
    expect(notifications.objectCreated({ ...created, key: "inbox/a b.json" })).toBe(1);
    expect(notifications.objectCreated({ ...created, key: "outputs/x" })).toBe(0);
    expect(
      notifications.objectCreated({ ...created, key: "inbox/a", bucket: "another-bucket" }),
    ).toBe(0);
    expect(runner.calls).toHaveLength(1);
    const { functionId, event } = runner.calls[0]!;
    expect(functionId).toBe("DropFunction");
    expect(event.Records).toHaveLength(1);
    expect(event.Records[0]).toMatchObject({
      eventVersion: "2.1",
      eventSource: "aws:s3",
      awsRegion: "eu-west-1",
      eventName: "ObjectCreated:Put",
      s3: {
        s3SchemaVersion: "1.0",
        bucket: { name: bucketNames.Bucket, arn: `arn:aws:s3:::${bucketNames.Bucket}` },
        object: {
          key: "inbox/a+b.json",
          size: 42,
          eTag: "abc",
          sequencer: expect.stringMatching(/^[0-9A-F]+$/),
        },
      },
    });
    expect(event.Records[0].eventTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("encodes keys as a form does, keeping the slashes", () => {
    expect(encodeKey("inbox/a b (1)=x~!'.json")).toBe("inbox/a+b+%281%29%3Dx%7E%21%27.json");
    expect(encodeKey("inbox/ü+.png")).toBe("inbox/%C3%BC%2B.png");
  });

  it("requires every bucket it notifies for to be named", () => {
    expect(
      () =>
        new BucketNotifications(TEMPLATE, fakeRunner().invokeAsync, {
          bucketNames: {},
          region: "eu-west-1",
        }),
    ).toThrow(/no name for bucket/);
  });
});

describe("the schedules", () => {
  it("reads both one-minute rules and their targets", () => {
    expect(schedules(TEMPLATE)).toEqual([
      {
        rule: "WebhookSchedule",
        name: "WebhookSchedule",
        expression: "rate(1 minute)",
        periodMs: 60_000,
        target: "WebhookSweepFunction",
      },
      {
        rule: "DispatchSchedule",
        name: "DispatchSchedule",
        expression: "rate(1 minute)",
        periodMs: 60_000,
        target: "DispatchFunction",
      },
    ]);
  });

  it("parses rate expressions as EventBridge does, and refuses cron", () => {
    expect(periodOf("rate(5 minutes)")).toBe(300_000);
    expect(periodOf("rate(1 hour)")).toBe(3_600_000);
    expect(periodOf("rate(2 days)")).toBe(172_800_000);
    expect(() => periodOf("rate(1 minutes)")).toThrow(/not a valid schedule expression/);
    expect(() => periodOf("rate(5 minute)")).toThrow(/not a valid schedule expression/);
    expect(() => periodOf("rate(0 minutes)")).toThrow(/not a valid schedule expression/);
    expect(() => periodOf("cron(0/5 * * * ? *)")).toThrow(/cron schedules are not implemented/);
  });

  it("tick() hands both scheduled targets a Scheduled Event", () => {
    const runner = fakeRunner();
    const scheduler = new Scheduler(TEMPLATE, runner.invokeAsync, {
      ...OPTS,
      ruleNames: { DispatchSchedule: "test-reelay-DispatchSchedule-1X2Y3Z" },
    });
    const time = new Date("2026-11-28T12:00:00.123Z");
    expect(scheduler.tick(time)).toBe(2);
    expect(runner.calls.map((c) => c.functionId)).toEqual([
      "WebhookSweepFunction",
      "DispatchFunction",
    ]);
    for (const { event } of runner.calls) {
      expect(event).toMatchObject({
        version: "0",
        "detail-type": "Scheduled Event",
        source: "aws.events",
        account: "123456789012",
        region: "eu-west-1",
        time: "2026-11-28T12:00:00Z",
        detail: {},
      });
    }
    expect(runner.calls[1]!.event.resources).toEqual([
      "arn:aws:events:eu-west-1:123456789012:rule/test-reelay-DispatchSchedule-1X2Y3Z",
    ]);
    expect(scheduledEvent("r", { ...OPTS, time }).resources).toEqual([
      "arn:aws:events:eu-west-1:123456789012:rule/r",
    ]);
  });
});
