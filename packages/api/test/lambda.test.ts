/** The same app behind API Gateway's HTTP API (payload v2) through hono/aws-lambda, as the AWS API function runs it. */
import { handle } from "hono/aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "@reelay/core/domain";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { API_KEY, harness, VALID, type Harness } from "./support/harness.ts";

let aws: LocalAws;
let h: Harness;
beforeAll(async () => {
  aws = await startLocalAws();
  h = await harness(aws);
});
afterAll(() => aws.stop());

function httpApiEvent(
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string>; query?: string } = {},
) {
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath: path,
    rawQueryString: options.query ?? "",
    headers: { host: "abc123.execute-api.us-east-1.amazonaws.com", ...options.headers },
    body: options.body ?? null,
    isBase64Encoded: false,
    requestContext: {
      accountId: "123456789012",
      apiId: "abc123",
      authentication: null,
      authorizer: {} as never,
      domainName: "abc123.execute-api.us-east-1.amazonaws.com",
      domainPrefix: "abc123",
      http: { method, path, protocol: "HTTP/1.1", sourceIp: "127.0.0.1", userAgent: "test" },
      requestId: "req-1",
      routeKey: "$default",
      stage: "$default",
      time: "02/Jan/2030:03:04:05 +0000",
      timeEpoch: 1893553445000,
    },
  };
}

describe("on Lambda via hono/aws-lambda", () => {
  it("creates a job from an HTTP API event and answers the contract's shape as a proxy result", async () => {
    const handler = handle(h.app);
    const body = JSON.stringify(VALID);
    const result = await handler(
      httpApiEvent("POST", "/v1/video/generations", {
        body,
        headers: {
          authorization: `Bearer ${API_KEY}`,
          "content-type": "application/json",
          "content-length": String(body.length),
        },
      }),
    );
    expect(result.statusCode).toBe(200);
    const answer = JSON.parse(result.body) as {
      task_id: string;
      service_task: { task_id: string };
    };
    expect(answer.service_task.task_id).toBe(answer.task_id);
    expect((await h.jobs.get(answer.task_id))?.status).toBe("queued");
    expect(h.starter.started.map((job) => job.id)).toEqual([answer.task_id]);
  });

  it("refuses a request without a key with 401 and WWW-Authenticate, and serves /healthz openly", async () => {
    const handler = handle(h.app);
    const refused = await handler(httpApiEvent("GET", "/v1/jobs", { query: "limit=5" }));
    expect(refused.statusCode).toBe(401);
    expect(refused.headers?.["www-authenticate"]).toMatch(/^Bearer\b/);
    const health = await handler(httpApiEvent("GET", "/healthz"));
    expect(health.statusCode).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ ok: true, version: VERSION });
  });
});
