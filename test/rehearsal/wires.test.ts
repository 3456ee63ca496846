/**
 * The rehearsal's wires over a small template shaped like reelay's synthesized one (the resource
 * shapes copied from a synth): which function each request, event, object drop and schedule
 * reaches, and with what event. The functions are faked here, recording what they were handed,
 * because running them is another part of the rehearsal (the function runner).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpApi, type HttpApi } from "../../rehearsal/wires/http-api.ts";
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
