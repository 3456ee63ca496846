/**
 * Fuzzing every route of the local stack over real HTTP (node:http on 127.0.0.1, no app.fetch):
 * the routes, their methods, parameters and body schemas are read from the stack's own
 * /openapi.json, so a route added later is fuzzed without touching this file. Whatever arrives,
 * the answer is below 500, every 4xx is `{error: {code, message}}` JSON, 2xx is JSON (except the
 * documented HTML, script, style and event-stream answers), and oversized bodies are 413.
 *
 * Valid bodies do happen (most are built from the documented example) and become real jobs on the
 * bundled simulator (whose tasks outlast the file); the last test checks the stack is still healthy
 * afterwards. The seed is
 * printed; REELAY_FUZZ_SEED replays a run, REELAY_FUZZ_SCALE makes it longer.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULTS,
  MAX_BATCH_BODY_BYTES,
  MAX_EDIT_BODY_BYTES,
  MAX_UPLOAD_BODY_BYTES,
} from "@reelay/api";
import { startTestStack, type TestStack } from "../e2e/support/stack.ts";
import {
  badAuthorization,
  FUZZ_SEED,
  fuzzParams,
  jsonTextFor,
  multipartBody,
  oddHeaders,
  pathSegment,
  queryFor,
  runs,
  randomBody,
  type JsonSchema,
  type QueryParam,
} from "./support/arbitraries.ts";
import {
  expectWellFormed,
  send,
  sendRaw,
  type RawRequest,
  type RawResponse,
} from "./support/http.ts";

interface Route {
  method: string;
  /** OpenAPI form: /v1/jobs/{id} */
  template: string;
  auth: boolean;
  query: QueryParam[];
  body?: { contentType: string; schema: JsonSchema; example: unknown };
}

let stack: TestStack;
let routes: Route[];
let hints: string[];
let storedKey: string;
let jobId: string;
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

/**
 * Routes that speak another protocol's errors: /mcp answers MCP's JSON-RPC (numeric error codes,
 * its own 401 and 406), which packages/mcp's tests drive with the SDK's own client.
 */
const PROTOCOL_ROUTES = new Set(["/mcp"]);

function routesOf(doc: { paths: Record<string, Record<string, any>> }): Route[] {
  return Object.entries(doc.paths).flatMap(([template, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const [contentType, media] =
        Object.entries(
          (op.requestBody?.content ?? {}) as Record<
            string,
            { schema: JsonSchema; example: unknown }
          >,
        )[0] ?? [];
      return {
        method: method.toUpperCase(),
        template,
        auth: (op.security ?? []).length > 0,
        query: ((op.parameters ?? []) as (QueryParam & { in: string })[])
          .filter((p) => p.in === "query")
          .map(({ name, schema, example }) => ({
            name,
            schema,
            ...(example === undefined ? {} : { example }),
          })),
        ...(contentType === undefined || media === undefined
          ? {}
          : { body: { contentType, schema: media.schema, example: media.example } }),
      };
    }),
  );
}

/** Every string in a value: model ids, resolutions and the like, as values worth trying anywhere. */
function stringsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === "string" && value.length < 100) out.add(value);
  else if (value !== null && typeof value === "object") {
    for (const item of Object.values(value)) stringsIn(item, out);
  }
  return out;
}

const fill = (template: string, segment: string) => template.replace(/\{[^}]+\}/g, segment);
const withParams = (route: Route) => fill(route.template, jobId);
/** How many segments a path has once its dot segments are resolved, as the server resolves them. */
const resolvedSegments = (path: string) =>
  new URL(path, "http://reelay.invalid").pathname.split("/").length;
const authHeaders = (key: string) => ({ authorization: `Bearer ${key}` });
const keyArb = () => fc.constantFrom(stack.apiKey, storedKey);

async function call(req: RawRequest): Promise<RawResponse> {
  return send(stack.url, req);
}

/** Every (status, error code) answered, for the summary printed at the end. */
const seen = new Map<string, number>();

async function check(req: RawRequest): Promise<RawResponse> {
  const res = await call(req);
  expectWellFormed(res, `${req.method} ${req.path.slice(0, 200)}`, req.method);
  const code =
    res.status >= 400 && req.method !== "HEAD"
      ? (JSON.parse(res.body.toString("utf8")) as { error: { code: string } }).error.code
      : "";
  const key = `${res.status}${code === "" ? "" : ` ${code}`}`;
  seen.set(key, (seen.get(key) ?? 0) + 1);
  return res;
}

beforeAll(async () => {
  process.on("unhandledRejection", onRejection);
  console.log(`api fuzz seed ${FUZZ_SEED} (replay: REELAY_FUZZ_SEED=${FUZZ_SEED})`);
  // The fuzz is about the answers, not the jobs valid bodies make: one upstream slot, taken by a
  // task that runs an hour of the simulator's time (minutes here), so the rest wait in admission.
  // Their submits, polls, downloads and events were most of this file's CPU.
  stack = await startTestStack({ REELAY_UPSTREAM_CONCURRENCY: "1" }, { generationMs: 3_600_000 });
  const doc = JSON.parse(
    (await call({ method: "GET", path: "/openapi.json" })).body.toString("utf8"),
  );
  routes = routesOf(doc).filter((route) => !PROTOCOL_ROUTES.has(route.template));
  const models = JSON.parse(
    (
      await call({ method: "GET", path: "/v1/models", headers: authHeaders(stack.apiKey) })
    ).body.toString("utf8"),
  );
  hints = [...stringsIn(models.data), ...stringsIn(routes.map((route) => route.body?.example))];
  const key = await call({
    method: "POST",
    path: "/v1/keys",
    headers: { ...authHeaders(stack.apiKey), "content-type": "application/json" },
    body: '{"name":"fuzz"}',
  });
  storedKey = JSON.parse(key.body.toString("utf8")).key;
  const created = await call({
    method: "POST",
    path: "/v1/video/generations",
    headers: { ...authHeaders(stack.apiKey), "content-type": "application/json" },
    body: JSON.stringify({ model: "gamma-3.1", prompt: "a paper boat in the rain" }),
  });
  jobId = JSON.parse(created.body.toString("utf8")).task_id;
}, 60_000);

afterAll(async () => {
  console.log(
    `api fuzz answers: ${[...seen]
      .sort()
      .map(([key, n]) => `${key} x${n}`)
      .join(", ")}`,
  );
  process.off("unhandledRejection", onRejection);
  await stack?.dispose();
});

describe("fuzzing every route over real HTTP", () => {
  it("the routes come from the served OpenAPI document, with every body route among them", () => {
    const keys = routes.map((route) => `${route.method} ${route.template}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        "POST /v1/video/generations",
        "POST /v1/chat/completions",
        "POST /v1/images/edits",
        "GET /v1/jobs",
        "GET /v1/events",
      ]),
    );
    expect(routes.filter((route) => route.body !== undefined).length).toBeGreaterThanOrEqual(4);
    expect(storedKey).toMatch(/\S{16,}/);
    expect(jobId).toMatch(/^vidtsk_/);
  });

  it("JSON bodies derived from each route's schema (mutated fields, wrong types, huge strings, prototype keys, deep nesting) never get a 5xx", async () => {
    const jsonRoutes = routes.filter((route) => route.body?.contentType === "application/json");
    for (const route of jsonRoutes) {
      const body = route.body!;
      await fc.assert(
        fc.asyncProperty(
          jsonTextFor(body.schema, hints, body.example),
          keyArb(),
          fc.boolean(),
          oddHeaders,
          async (text, key, typed, extra) => {
            await check({
              method: route.method,
              path: withParams(route),
              headers: {
                ...extra,
                ...authHeaders(key),
                ...(typed ? { "content-type": "application/json" } : {}),
              },
              body: text,
            });
          },
        ),
        fuzzParams(40),
      );
    }
  }, 120_000);

  it("random bytes with a random, wrong or missing Content-Type on every route and method never get a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        randomBody,
        keyArb(),
        async (route, { bytes, contentType }, key) => {
          await check({
            method: route.method,
            path: withParams(route),
            headers: {
              ...authHeaders(key),
              ...(contentType === undefined ? {} : { "content-type": contentType }),
            },
            body: bytes,
          });
        },
      ),
      fuzzParams(100),
    );
  }, 120_000);

  it("malformed multipart forms on POST /v1/images/edits get a 4xx with the error shape, never a 5xx", async () => {
    const edits = routes.find((route) => route.body?.contentType === "multipart/form-data");
    expect(edits?.template).toBe("/v1/images/edits");
    await fc.assert(
      fc.asyncProperty(
        multipartBody,
        keyArb(),
        oddHeaders,
        fc.constantFrom("", "", "?wait=0", "?wait=1", "?wait=x"),
        async ({ contentType, body }, key, extra, query) => {
          await check({
            method: "POST",
            path: edits!.template + query,
            headers: { ...extra, ...authHeaders(key), "content-type": contentType },
            body,
          });
        },
      ),
      fuzzParams(80),
    );
  }, 120_000);

  it("path parameters with %00, ../, bad escapes, odd unicode and 7000 characters never get a 5xx, for the admin and a stored key", async () => {
    const templated = routes.filter((route) => route.template.includes("{"));
    expect(templated.length).toBeGreaterThanOrEqual(4);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...templated),
        pathSegment,
        keyArb(),
        async (route, segment, key) => {
          const path = fill(route.template, segment);
          const res = await check({ method: route.method, path, headers: authHeaders(key) });
          // A dot segment (`..`, `%2e%2e`) is removed with the one before it as any URL's are
          // (RFC 3986 5.2.4): /v1/batches/../events asks for GET /v1/events, another route with
          // its own rules, so only "never a 5xx" holds there.
          if (resolvedSegments(path) < path.split("/").length) return;
          // Nothing is found by a made-up id; a 2xx would mean the id reached someone's job.
          expect(
            res.status,
            `${route.method} ${route.template} with ${segment.slice(0, 80)}`,
          ).toBeGreaterThanOrEqual(400);
        },
      ),
      fuzzParams(130),
    );
  }, 120_000);

  it("query strings (garbage cursors, limits -1/1e9/NaN, unknown and repeated parameters) never get a 5xx", async () => {
    // Each route with documented query parameters on its own, then any route with garbage.
    for (const route of routes.filter((r) => r.query.length > 0)) {
      await fc.assert(
        fc.asyncProperty(queryFor(route.query, hints), keyArb(), async (query, key) => {
          await check({
            method: route.method,
            path: `${withParams(route)}?${query}`,
            headers: authHeaders(key),
          });
        }),
        fuzzParams(40),
      );
    }
    const gets = routes.filter((route) => route.method === "GET");
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...gets),
        queryFor([]),
        keyArb(),
        async (route, query, key) => {
          await check({
            method: "GET",
            path: `${withParams(route)}?${query}`,
            headers: authHeaders(key),
          });
        },
      ),
      fuzzParams(40),
    );
    // Every listing parameter on its own too, with the values named in the brief.
    const list = routes.find((route) => route.template === "/v1/jobs" && route.method === "GET")!;
    for (const { name } of list.query) {
      for (const value of ["-1", "1e9", "NaN", "", "%FF", "0", "101", "x".repeat(3000)]) {
        const res = await check({
          method: "GET",
          path: `/v1/jobs?${name}=${value}`,
          headers: authHeaders(stack.apiKey),
        });
        if (name === "limit" && value !== "")
          expect(res.status, `limit=${value.slice(0, 20)}`).toBe(400);
      }
    }
  }, 120_000);

  it("a method a path does not serve answers 405 with Allow (HEAD of a GET route aside), with the error shape", async () => {
    const paths = [...new Set(routes.map((route) => route.template))];
    for (const template of paths) {
      const served = routes
        .filter((route) => route.template === template)
        .map((route) => route.method);
      for (const method of [
        "GET",
        "POST",
        "PUT",
        "PATCH",
        "DELETE",
        "OPTIONS",
        "HEAD",
        "PROPFIND",
        "PURGE",
      ]) {
        if (served.includes(method) || (method === "HEAD" && served.includes("GET"))) continue;
        const res = await check({
          method,
          path: fill(template, jobId),
          headers: authHeaders(stack.apiKey),
        });
        expect(res.status, `${method} ${template}`).toBe(405);
        expect(res.headers.allow, `${method} ${template}`).toBeTruthy();
      }
    }
  });

  it("a missing or bad Authorization on every /v1 route and /metrics answers 401 with the error shape", async () => {
    const guarded = routes.filter((route) => route.auth);
    expect(
      guarded.every((route) => route.template.startsWith("/v1/") || route.template === "/metrics"),
    ).toBe(true);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...guarded),
        badAuthorization,
        async (route, authorization) => {
          const res = await check({
            method: route.method,
            path: withParams(route),
            headers: {
              "content-type": "application/json",
              ...(authorization === undefined ? {} : { authorization }),
            },
            body: route.body === undefined ? undefined : "{}",
          });
          expect(
            res.status,
            `${route.method} ${route.template} with ${JSON.stringify(authorization)?.slice(0, 60)}`,
          ).toBe(401);
        },
      ),
      fuzzParams(80),
    );
  });

  /** Each body route's limit; a body route not listed here must refuse even the largest one. */
  const LIMITS: Record<string, number> = {
    "POST /v1/video/generations": DEFAULTS.maxBodyBytes,
    "POST /v1/chat/completions": DEFAULTS.maxBodyBytes,
    "POST /v1/images/edits": MAX_EDIT_BODY_BYTES,
    "POST /v1/keys": 16 * 1024,
    "PUT /v1/keys/{id}/budget": 16 * 1024,
    "PUT /v1/keys/{id}/limits": 16 * 1024,
    "POST /v1/batches": MAX_BATCH_BODY_BYTES,
    "POST /v1/jobs/{id}/retry": DEFAULTS.maxBodyBytes,
    "POST /v1/events/{id}/replay": 16 * 1024,
    "POST /v1/webhooks": 16 * 1024,
    "POST /v1/uploads": MAX_UPLOAD_BODY_BYTES,
  };
  /**
   * A route whose refusal of a body over its limit is its own documented one: an upload over the
   * size limit is a 400 naming `file`, as every other upload refusal is.
   */
  const OWN_REFUSAL: Record<string, [number, string]> = {
    "POST /v1/uploads": [400, "upload_too_large"],
  };

  it("a body over the route's limit is 413 payload_too_large (an upload's is its own 400 upload_too_large): with a Content-Length, with one that lies, and chunked with none", async () => {
    const bodied = routes.filter((route) => route.body !== undefined);
    for (const route of bodied) {
      const what = `${route.method} ${route.template}`;
      const limit = LIMITS[what];
      if (limit === undefined) throw new Error(`${what} takes a body: add its limit to LIMITS`);
      const headers = {
        ...authHeaders(stack.apiKey),
        "content-type":
          route.body!.contentType === "multipart/form-data"
            ? "multipart/form-data; boundary=x"
            : "application/json",
      };
      const over = Buffer.alloc(limit + 1, 0x20);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const cases: [string, RawRequest][] = [
        ["Content-Length", { method: route.method, path: route.template, headers, body: over }],
        // Claims more than the limit and sends a little: refused on the header, nothing read.
        [
          "lying Content-Length",
          {
            method: route.method,
            path: route.template,
            headers: { ...headers, "content-length": String(limit + 1) },
            body: "{}",
          },
        ],
        [
          "chunked",
          {
            method: route.method,
            path: route.template,
            headers,
            body: (function* () {
              for (let sent = 0; sent <= limit; sent += chunk.length) yield chunk;
            })(),
          },
        ],
      ];
      const [status, code] = OWN_REFUSAL[what] ?? [413, "payload_too_large"];
      for (const [how, req] of cases) {
        const res = await call(req);
        expectWellFormed(res, `${what} (${how})`, req.method);
        expect(res.status, `${what} (${how})`).toBe(status);
        expect(JSON.parse(res.body.toString("utf8")).error.code).toBe(code);
      }
      // A Content-Length smaller than the body: the bytes after it are a malformed next request, which
      // Node's HTTP parser refuses (400 bad_request, connection closed), usually before the app answers.
      const short = await check({
        method: route.method,
        path: route.template,
        headers: { ...headers, "content-length": "2" },
        body: '{"model":"gamma-3.1"}',
      });
      expect(short.status, `${what} (short Content-Length)`).toBeGreaterThanOrEqual(400);
    }
  }, 120_000);

  it("what Node's HTTP parser refuses before the app sees it carries the error shape too: a 20 KB request line (431), a broken request", async () => {
    const long = await check({
      method: "GET",
      path: `/v1/jobs?cursor=${"x".repeat(20_000)}`,
      headers: authHeaders(stack.apiKey),
    });
    expect(long.status).toBe(431);
    for (const raw of [
      "GARBAGE\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
      "GET /\u0000 HTTP/1.1\r\n\r\n",
      "POST /v1/keys HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ]) {
      const res = await sendRaw(stack.url, raw);
      expectWellFormed(res, JSON.stringify(raw));
      expect(res.status, JSON.stringify(raw)).toBe(400);
    }
  });

  it("keys of random scopes and projects on every route: never a 5xx, an expired key is 401 key_expired, and no answer shows another project's job, subscriber or key", async () => {
    const admin = { ...authHeaders(stack.apiKey), "content-type": "application/json" };
    const projects = ["fz-a", "fz-b", "fz-c"];
    interface Made {
      key: string;
      project: string;
      scopes: string[];
    }
    const made: Made[] = [];
    /** Each project's objects: its jobs, subscribers and keys, by id. */
    const owned = new Map<string, string[]>(projects.map((p) => [p, []]));
    const post = async (headers: Record<string, string>, path: string, body: unknown) =>
      JSON.parse(
        (await check({ method: "POST", path, headers, body: JSON.stringify(body) })).body.toString(
          "utf8",
        ),
      );
    const keySpec = fc.record({
      project: fc.constantFrom(...projects),
      scopes: fc.subarray(["read", "write", "webhooks", "admin"], { minLength: 1 }),
      expires: fc.boolean(),
    });
    for (const spec of fc.sample(keySpec, { seed: FUZZ_SEED, numRuns: runs(8) })) {
      const record = await post(admin, "/v1/keys", {
        project: spec.project,
        scopes: spec.scopes,
        ...(spec.expires ? { expires_at: new Date(Date.now() + 86_400_000).toISOString() } : {}),
      });
      made.push({ key: record.key, project: spec.project, scopes: spec.scopes });
      owned.get(spec.project)?.push(record.id);
    }
    for (const project of projects) {
      const maker = await post(admin, "/v1/keys", {
        project,
        scopes: ["read", "write", "webhooks"],
      });
      made.push({ key: maker.key, project, scopes: ["read", "write", "webhooks"] });
      owned.get(project)?.push(maker.id);
      const headers = { ...authHeaders(maker.key), "content-type": "application/json" };
      const job = await post(headers, "/v1/video/generations", {
        model: "gamma-3.1",
        prompt: `a job of ${project}`,
      });
      const sub = await post(headers, "/v1/webhooks", { url: "https://example.com/hook" });
      owned.get(project)?.push(job.task_id, sub.id);
    }
    const expiring = await post(admin, "/v1/keys", {
      project: "fz-a",
      expires_at: new Date(Date.now() + 1_000).toISOString(),
    });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const guarded = routes.filter((route) => route.auth);
    const anyObject = fc.constantFrom(...[...owned.values()].flat());
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...guarded),
        fc.constantFrom(...made),
        anyObject,
        async (route, who, objectId) => {
          const path = fill(route.template, objectId);
          const res = await check({
            method: route.method,
            path,
            headers: { ...authHeaders(who.key), "content-type": "application/json" },
            body:
              route.body?.contentType === "application/json"
                ? JSON.stringify(route.body.example ?? {})
                : undefined,
          });
          const what = `${route.method} ${path} as a ${who.scopes.join("+")} key of ${who.project}`;
          const others = projects
            .filter((p) => p !== who.project)
            .flatMap((p) => owned.get(p) ?? []);
          // The answer may name the id it was asked about (a 404 says which); never any other.
          const text = res.body.toString("utf8");
          const shown = others.filter((id) => id !== objectId && text.includes(id));
          expect(shown, what).toEqual([]);
          if (route.template.includes("{") && others.includes(objectId))
            expect(res.status, what).toBeGreaterThanOrEqual(400);
        },
      ),
      fuzzParams(160),
    );
    for (const route of guarded) {
      const res = await check({
        method: route.method,
        path: withParams(route),
        headers: { ...authHeaders(expiring.key), "content-type": "application/json" },
        body: route.body === undefined ? undefined : "{}",
      });
      expect(res.status, `${route.method} ${route.template}`).toBe(401);
      expect(JSON.parse(res.body.toString("utf8")).error.code).toBe("key_expired");
    }
  }, 180_000);

  it("after all that the stack is healthy: /healthz 200, valid requests still work, no unhandled rejection", async () => {
    const health = await call({ method: "GET", path: "/healthz" });
    expect(health.status).toBe(200);
    const again = await check({
      method: "POST",
      path: "/v1/video/generations",
      headers: { ...authHeaders(stack.apiKey), "content-type": "application/json" },
      body: JSON.stringify({ model: "gamma-3.1", prompt: "a kite after the fuzz" }),
    });
    expect(again.status).toBe(200);
    expect(rejections).toEqual([]);
  });
});
