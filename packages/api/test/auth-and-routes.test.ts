import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobStore } from "@reelay/core/adapters";
import { VERSION } from "@reelay/core/domain";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { sameSecret, singleKeyAuthenticator } from "../src/index.ts";
import { API_KEY, auth, harness, VALID, type Harness } from "./support/harness.ts";

let aws: LocalAws;
let h: Harness;
beforeAll(async () => {
  aws = await startLocalAws();
  h = await harness(aws, {
    health: async () => ({ s3Endpoint: "http://127.0.0.1:1", bucket: "reelay-local" }),
  });
});
afterAll(() => aws.stop());

type ErrorAnswer = { error: { code: string; message: string } };

describe("bearer auth on /v1", () => {
  const routes: [string, string][] = [
    ["POST", "/v1/video/generations"],
    ["GET", "/v1/video/tasks/vidtsk_01ARZ3NDEKTSV4RRFFQ69G5FAV"],
    ["GET", "/v1/jobs"],
    ["GET", "/v1/jobs/vidtsk_01ARZ3NDEKTSV4RRFFQ69G5FAV"],
    ["GET", "/v1/no-such-route"],
  ];

  it.each(routes)(
    "%s %s without Authorization is 401 unauthorized with WWW-Authenticate: Bearer",
    async (method, path) => {
      const response = await h.app.request(path, {
        method,
        ...(method === "POST" ? { body: JSON.stringify(VALID) } : {}),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
      expect(((await response.json()) as ErrorAnswer).error.code).toBe("unauthorized");
    },
  );

  it.each([
    ["Basic dXNlcjpwYXNz"],
    ["Bearer"],
    ["Bearer "],
    [API_KEY],
    [`Bearer ${API_KEY} extra`],
  ])("a malformed header %j is 401 with WWW-Authenticate: Bearer", async (header) => {
    const response = await h.app.request("/v1/jobs", { headers: { Authorization: header } });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
  });

  it("an unknown token is 401 invalid_token and creates nothing", async () => {
    const response = await h.app.request("/v1/video/generations", {
      method: "POST",
      headers: { Authorization: "Bearer not-the-key", "Content-Type": "application/json" },
      body: JSON.stringify(VALID),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(h.starter.started).toEqual([]);
  });

  it("the scheme name is case-insensitive", async () => {
    const response = await h.app.request("/v1/jobs", {
      headers: { Authorization: `bearer ${API_KEY}` },
    });
    expect(response.status).toBe(200);
  });

  it("singleKeyAuthenticator accepts exactly its key as caller 'local' and refuses an empty key at construction", async () => {
    const authenticate = singleKeyAuthenticator("k-1");
    expect(await authenticate("k-1")).toEqual({ keyId: "local" });
    expect(await authenticate("k-2")).toBeUndefined();
    expect(await authenticate("k-1 ")).toBeUndefined();
    expect(await authenticate("")).toBeUndefined();
    expect(() => singleKeyAuthenticator("")).toThrow(TypeError);
    expect(sameSecret("a", "a")).toBe(true);
    expect(sameSecret("a", "ab")).toBe(false);
  });
});

describe("open routes and route errors", () => {
  it("GET /healthz needs no key and answers ok plus the health fields", async () => {
    const response = await h.app.request("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: true,
      version: VERSION,
      s3Endpoint: "http://127.0.0.1:1",
      bucket: "reelay-local",
    });
  });

  it("GET /healthz answers 503 ok:false when the health check throws", async () => {
    const sick = await harness(aws, { health: async () => Promise.reject(new Error("s3 down")) });
    const response = await sick.app.request("/healthz");
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ ok: false, error: { code: "unhealthy" } });
  });

  it("an unknown route is 404 not_found as JSON", async () => {
    for (const path of ["/nope", "/v1/nope"]) {
      const response = await h.app.request(path, { headers: auth });
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as ErrorAnswer).error.code).toBe("not_found");
    }
  });

  it("a wrong method on a known route is 405 method_not_allowed with Allow", async () => {
    const response = await h.app.request("/v1/video/generations", { method: "GET", headers: auth });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toContain("POST");
    expect(((await response.json()) as ErrorAnswer).error.code).toBe("method_not_allowed");
    const remove = await h.app.request("/v1/jobs/vidtsk_01ARZ3NDEKTSV4RRFFQ69G5FAV", {
      method: "DELETE",
      headers: auth,
    });
    expect(remove.status).toBe(405);
  });

  it("GET /v1/events is 404 when the app has no event source", async () => {
    const response = await h.app.request("/v1/events", { headers: auth });
    expect(response.status).toBe(404);
  });

  it("storage trouble is 503 service_unavailable with Retry-After, not 500", async () => {
    // A DynamoDB endpoint nobody listens on: port 9 on loopback refuses the connection.
    const nowhere = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        region: "us-east-1",
        endpoint: "http://127.0.0.1:9",
        credentials: { accessKeyId: "x", secretAccessKey: "x" },
        maxAttempts: 1,
      }),
    );
    const { app } = await harness(aws, { jobs: new JobStore(nowhere, "t") });
    const response = await app.request("/v1/jobs", { headers: auth });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).not.toBeNull();
    expect(((await response.json()) as ErrorAnswer).error.code).toBe("service_unavailable");
    nowhere.destroy();
  });
});
