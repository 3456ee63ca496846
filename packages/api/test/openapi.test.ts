import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { validate, videoRequestSchema } from "@reelay/core/domain";
import { ApiKeyStore } from "@reelay/core/adapters";
import { wireWebhooks } from "@reelay/core/wiring";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import {
  OPERATIONS,
  servedKeys,
  undocumentedRoutes,
  type OpenApiDocument,
} from "../src/openapi/document.ts";
import {
  ErrorSchema,
  ImageTaskSchema,
  JobViewSchema,
  ModelListSchema,
  TaskCreatedSchema,
  TaskSchema,
} from "../src/openapi/responses.ts";
import { created, harness, json } from "./support/harness.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

/** With an event source, a key store and the delivery log, the app serves every route it can (events, dashboard, keys, webhooks). */
const everything = () => ({
  eventStream: { subscribe: () => () => undefined },
  keys: new ApiKeyStore(aws.ddb, "keys-never-read"),
  webhooks: wireWebhooks({
    config: { webhookSchedule: [0], aws: { rehearsal: false } },
    platform: "aws",
    clients: { db: aws.ddb, tableName: "webhooks-never-read" },
  }).api,
});

async function documentOf(h: Awaited<ReturnType<typeof harness>>): Promise<OpenApiDocument> {
  const response = await h.app.request("/openapi.json");
  expect(response.status).toBe(200);
  return (await response.json()) as OpenApiDocument;
}

type Op = {
  security: unknown[];
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
  requestBody?: { content: Record<string, { schema: unknown; example: unknown }> };
};
const operationsOf = (doc: OpenApiDocument) =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op: op as Op })),
  );

describe("GET /openapi.json", () => {
  it("is served without a key and is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)", async () => {
    const doc = await documentOf(await harness(aws, everything()));
    expect(doc.openapi).toBe("3.1.0");
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("documents every route the app serves, and nothing it does not serve", async () => {
    const h = await harness(aws, everything());
    expect(undocumentedRoutes(h.app.routes)).toEqual([]);
    const doc = await documentOf(h);
    const documented = operationsOf(doc)
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`)
      .sort();
    expect(documented).toEqual(servedKeys(h.app.routes).sort());
    expect(documented).toEqual(
      expect.arrayContaining([
        "GET /v1/models",
        "POST /v1/video/generations",
        "GET /openapi.json",
        "GET /docs",
        "GET /v1/events",
        "POST /v1/keys",
      ]),
    );
  });

  it("an app without an event source leaves /v1/events out of its document", async () => {
    const doc = await documentOf(await harness(aws));
    expect(doc.paths["/v1/events"]).toBeUndefined();
    expect(doc.paths["/v1/models"]).toBeDefined();
  });

  it("a route added without documentation is reported as undocumented", async () => {
    const h = await harness(aws, everything());
    h.app.get("/v1/brand-new/:thing", (c) => c.text("x"));
    expect(undocumentedRoutes(h.app.routes)).toEqual(["GET /v1/brand-new/{thing}"]);
  });

  it("every /v1 operation and /mcp needs the bearer scheme and documents 401; open routes need nothing", async () => {
    const doc = await documentOf(await harness(aws, everything()));
    expect(doc.components.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: "http", scheme: "bearer" }),
    });
    for (const { path, op } of operationsOf(doc)) {
      if (path.startsWith("/v1/") || path === "/mcp") {
        expect(op.security, path).toEqual([{ bearer: [expect.any(String)] }]);
        expect(op.responses["401"], path).toBeDefined();
      } else {
        expect(op.security, path).toEqual([]);
      }
    }
  });

  it("every operation has a success example, and every request body an example", async () => {
    const doc = await documentOf(await harness(aws, everything()));
    for (const { path, method, op } of operationsOf(doc)) {
      // A redirect (the content route's 302) is that route's success.
      const success = Object.entries(op.responses).find(([status]) => /^[23]/.test(status))?.[1];
      expect(Object.values(success?.content ?? {})[0]?.example, `${method} ${path}`).toBeDefined();
      for (const media of Object.values(op.requestBody?.content ?? {}))
        expect(media.example, `${method} ${path}`).toBeDefined();
    }
  });

  it("the video request body schema is the one validate() parses with (videoRequestSchema()), and its example passes validate()", async () => {
    const doc = await documentOf(await harness(aws));
    const body = (doc.paths["/v1/video/generations"]!.post as Op).requestBody?.content[
      "application/json"
    ];
    const { $schema: _ignored, ...expected } = z.toJSONSchema(videoRequestSchema(), {
      target: "draft-2020-12",
      unrepresentable: "any",
      io: "input",
    }) as Record<string, unknown>;
    expect(body?.schema).toEqual(expected);
    expect(validate(body?.example).valid).toBe(true);
  });

  it("real responses match the documented response schemas (create, task, job, models, error)", async () => {
    const h = await harness(aws);
    const create = await h.post(
      OPERATIONS["POST /v1/video/generations"]!.request!.example as object,
    );
    TaskCreatedSchema.parse(await create.json());
    const id = await created(h);
    TaskSchema.parse(await (await h.get(`/v1/video/tasks/${id}`)).json());
    JobViewSchema.parse(await (await h.get(`/v1/jobs/${id}`)).json());
    ModelListSchema.parse(await (await h.get("/v1/models")).json());
    const refused = await h.post({ model: "gamma-3.1", prompt: "x", duration_sec: 5 });
    expect(refused.status).toBe(400);
    expect(ErrorSchema.parse(await refused.json()).error.code).toBe("invalid_request");
  });

  it("every documented example parses with the zod schema documented beside it (request and response)", () => {
    for (const [key, op] of Object.entries(OPERATIONS)) {
      if (op.response.schema !== undefined)
        expect(op.response.schema.safeParse(op.response.example).error, key).toBeUndefined();
      const request = op.request?.schema;
      if (request instanceof z.ZodType)
        expect(request.safeParse(op.request?.example).error, key).toBeUndefined();
    }
  });

  it("a real image task, created and queried, matches the documented image schemas", async () => {
    const h = await harness(aws);
    const example = OPERATIONS["POST /v1/chat/completions"]!.request!.example;
    const response = await h.app.request("/v1/chat/completions", {
      method: "POST",
      headers: json,
      body: JSON.stringify(example),
    });
    expect(response.status).toBe(200);
    const { task_id } = TaskCreatedSchema.parse(await response.json());
    expect(task_id).toMatch(/^imgtsk_/);
    ImageTaskSchema.parse(await (await h.get(`/v1/image/tasks/${task_id}`)).json());
  });
});
