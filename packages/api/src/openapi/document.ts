/**
 * The OpenAPI 3.1 document, generated: request bodies from core's contract schemas (the ones
 * validate() uses), responses from ./responses.ts, and each route's entry from its area's
 * operations (routes/<area>/operations.ts, dashboard/operations.ts), collected here. This module is
 * reached only by the app's dynamic import (app.ts), so a cold start loads none of them.
 */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all 450 KB).
import * as z from "zod";
import { DRY_RUN_REF, DryRunSchema } from "./dry-run.ts";
import { ErrorSchema } from "./responses.ts";
import { ADMIN_ONLY, UNAUTHORIZED } from "./examples.ts";
import type { Operation } from "./operation.ts";
import { DASHBOARD_OPERATIONS } from "../dashboard/operations.ts";
import { ADMISSION_OPERATIONS } from "../routes/admission/operations.ts";
import { AUDIT_OPERATIONS } from "../routes/audit/operations.ts";
import { BATCHES_OPERATIONS } from "../routes/batches/operations.ts";
import { CONTENT_OPERATIONS } from "../routes/content/operations.ts";
import { DOCS_OPERATIONS } from "../routes/docs/operations.ts";
import { EVENTS_OPERATIONS } from "../routes/events/operations.ts";
import { FOLLOW_OPERATIONS } from "../routes/follow/operations.ts";
import { HEALTH_OPERATIONS } from "../routes/health/operations.ts";
import { IMAGES_OPERATIONS } from "../routes/images/operations.ts";
import { JOBS_OPERATIONS } from "../routes/jobs/operations.ts";
import { KEYS_OPERATIONS } from "../routes/keys/operations.ts";
import { MCP_OPERATIONS } from "../routes/mcp/operations.ts";
import { METRICS_OPERATIONS } from "../routes/metrics/operations.ts";
import { MODELS_OPERATIONS } from "../routes/models/operations.ts";
import { OPENAPI_OPERATIONS } from "../routes/openapi/operations.ts";
import { subscriberOperations } from "../routes/subscribers/operations.ts";
import { UPSTREAM_OPERATIONS } from "../routes/upstreams/operations.ts";
import { UPLOADS_OPERATIONS } from "../routes/uploads/operations.ts";
import { USAGE_OPERATIONS } from "../routes/usage/operations.ts";
import { VIDEO_OPERATIONS } from "../routes/video/operations.ts";
import { webhookOperations } from "../routes/webhooks/operations.ts";
import { openApiPath, ROUTE_SCOPES } from "../route-scopes.ts";

/** Every documented route by its "METHOD /path" key; a test checks it against the routes served. */
export const OPERATIONS: Readonly<Record<string, Operation>> = {
  ...HEALTH_OPERATIONS,
  ...OPENAPI_OPERATIONS,
  ...DOCS_OPERATIONS,
  ...MCP_OPERATIONS,
  ...VIDEO_OPERATIONS,
  ...IMAGES_OPERATIONS,
  ...MODELS_OPERATIONS,
  ...JOBS_OPERATIONS,
  ...CONTENT_OPERATIONS,
  ...EVENTS_OPERATIONS,
  ...FOLLOW_OPERATIONS,
  ...DASHBOARD_OPERATIONS,
  ...KEYS_OPERATIONS,
  ...ADMISSION_OPERATIONS,
  ...METRICS_OPERATIONS,
  ...BATCHES_OPERATIONS,
  ...webhookOperations({ unauthorized: UNAUTHORIZED, adminOnly: ADMIN_ONLY }),
  ...subscriberOperations(UNAUTHORIZED),
  ...USAGE_OPERATIONS,
  ...UPSTREAM_OPERATIONS,
  ...AUDIT_OPERATIONS,
  ...UPLOADS_OPERATIONS,
};

export interface ServedRoute {
  method: string;
  path: string;
}

export type OpenApiDocument = {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: Record<string, unknown>;
  [key: string]: unknown;
};

/** The routes an app serves as "METHOD /path" keys; middleware (method ALL) is not a route. */
export function servedKeys(routes: readonly ServedRoute[]): string[] {
  return [
    ...new Set(
      routes
        .filter((route) => route.method !== "ALL")
        .map((route) => `${route.method} ${openApiPath(route.path)}`),
    ),
  ];
}

/** Served routes with no entry in OPERATIONS: each one is a hole in the docs. */
export function undocumentedRoutes(routes: readonly ServedRoute[]): string[] {
  return servedKeys(routes).filter((key) => OPERATIONS[key] === undefined);
}

function jsonSchema(
  schema: z.ZodType | Record<string, unknown>,
  io: "input" | "output",
): Record<string, unknown> {
  if (!(schema instanceof z.ZodType)) return schema;
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    unrepresentable: "any",
    io,
  }) as Record<string, unknown>;
  return rest;
}

function operationId(key: string): string {
  return key
    .toLowerCase()
    .replace(/[{}]/g, "")
    .split(/[^a-z0-9]+/)
    .filter((part) => part !== "")
    .map((part, index) => (index === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1)))
    .join("");
}

function errorResponses(op: Operation): Record<string, unknown> {
  type ErrorCase = Operation["errors"][number];
  const byStatus = new Map<number, [ErrorCase, ...ErrorCase[]]>();
  for (const error of op.errors) {
    const cases = byStatus.get(error.status);
    if (cases === undefined) byStatus.set(error.status, [error]);
    else cases.push(error);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, cases]) => {
      const [first] = cases;
      return [
        String(status),
        {
          description: cases
            .map((error) => `${error.codes.map((code) => `\`${code}\``).join(", ")}: ${error.when}`)
            .join(" "),
          content: {
            "application/json": {
              schema: { $ref: "#/components/schemas/Error" },
              example: { error: { code: first.codes[0], message: first.when } },
            },
          },
        },
      ];
    }),
  );
}

/**
 * Every keyed route can meet a key without its scope (the 403 the scope middleware answers) and a
 * key past its rate (the 429 of limits.ts).
 */
function withScopeError(key: string, op: Operation): Operation {
  const scope = ROUTE_SCOPES[key];
  if (!op.auth || scope === null || scope === undefined) return op;
  const when = `The key lacks the \`${scope}\` scope (error.scope names it).`;
  const rate =
    "The key made more calls than its limits' rate and burst allow; Retry-After says when to call again.";
  return {
    ...op,
    errors: [
      ...op.errors,
      { status: 403, codes: ["scope_missing"], when },
      { status: 429, codes: ["rate_limited"], when: rate },
    ],
  };
}

function operation(key: string, given: Operation): Record<string, unknown> {
  const op = withScopeError(key, given);
  const response: Record<string, unknown> = { example: op.response.example };
  if (op.response.schema !== undefined) response.schema = jsonSchema(op.response.schema, "output");
  return {
    operationId: operationId(key),
    summary: op.summary,
    description: op.description,
    tags: [op.tag],
    // The scope the route needs, from the route table (route-scopes.ts).
    security: op.auth ? [{ bearer: [ROUTE_SCOPES[key] ?? "admin"] }] : [],
    ...(op.parameters === undefined ? {} : { parameters: op.parameters }),
    ...(op.request === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: {
              [op.request.contentType]: {
                schema: jsonSchema(op.request.schema, "input"),
                example: op.request.example,
              },
              ...Object.fromEntries(
                (op.request.alternatives ?? []).map((other) => [
                  other.contentType,
                  { schema: jsonSchema(other.schema, "input"), example: other.example },
                ]),
              ),
            },
          },
        }),
    responses: {
      [String(op.response.status)]: {
        description: op.response.description,
        ...(op.response.headers === undefined ? {} : { headers: op.response.headers }),
        ...(op.response.dryRun === undefined ? {} : { "x-dry-run": DRY_RUN_REF }),
        content: { [op.response.contentType]: response },
      },
      ...errorResponses(op),
    },
    "x-error-codes": op.errors.flatMap((error) => error.codes),
  };
}

/** The document for an app serving `served`; every documented operation when not given. */
export function buildOpenApiDocument(served?: readonly ServedRoute[]): OpenApiDocument {
  const keys =
    served === undefined
      ? Object.keys(OPERATIONS)
      : servedKeys(served).filter((key) => OPERATIONS[key] !== undefined);
  const paths: OpenApiDocument["paths"] = {};
  for (const key of keys) {
    const op = OPERATIONS[key];
    if (op === undefined) continue;
    const [method, path] = key.split(" ") as [string, string];
    const methods = paths[path] ?? {};
    methods[method.toLowerCase()] = operation(key, op);
    paths[path] = methods;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "reelay",
      version: "1",
      summary: "A durable pipeline in front of an asynchronous video and image generation service.",
      description:
        "Speaks the service contract itself (point a client's base URL at `<reelay>/v1`), with validation against each model's rules, durable S3 copies of every output, idempotency and job history on top. Every error is `{error: {code, message, path?, errors?}}`.",
    },
    servers: [{ url: "/" }],
    tags: ["service", "video", "image", "models", "jobs", "events", "keys", "dashboard"].map(
      (name) => ({ name }),
    ),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description:
            "`Authorization: Bearer <API key>` on every /v1 route. Each operation's `security` names the scope it needs (`read`, `write`, `webhooks`, `admin`); a key without it is 403 `scope_missing`.",
        },
      },
      schemas: {
        Error: jsonSchema(ErrorSchema, "output"),
        CreateDryRun: jsonSchema(DryRunSchema, "output"),
      },
    },
  };
}
