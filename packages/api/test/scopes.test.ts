/**
 * Scopes: each route needs the scope the route table gives it; a key without it is 403
 * scope_missing naming the scope, and the OpenAPI document shows each route's scope.
 */
import { describe, expect, it } from "vitest";
import { servedKeys } from "../src/openapi/document.ts";
import { ROUTE_SCOPES } from "../src/route-scopes.ts";
import { call, newKey, sharedFullApp } from "./support/full-app.ts";
import { API_KEY, VALID } from "./support/harness.ts";

const app = sharedFullApp();

const keyWith = (scopes?: string[]) => newKey(app(), scopes === undefined ? {} : { scopes });

describe("scopes", () => {
  it("a key made without scopes has read and write; the deployment's key does everything", async () => {
    const plain = await keyWith();
    expect(plain.scopes).toEqual(["read", "write"]);
    expect((await call(app(), "POST", "/v1/video/generations", plain.key, VALID)).status).toBe(200);
    const hooks = await call(app(), "GET", "/v1/webhooks", plain.key);
    expect(hooks.status).toBe(403);
    expect(hooks.body.error).toMatchObject({ code: "scope_missing", scope: "webhooks" });
    expect((await call(app(), "GET", "/v1/webhooks", API_KEY)).status).toBe(200);
  });

  it("a read key reads, and creating, cancelling, retrying or managing webhooks is 403 scope_missing naming the scope", async () => {
    const writer = await keyWith(["read", "write"]);
    const reader = await keyWith(["read"]);
    const made = await call(app(), "POST", "/v1/video/generations", writer.key, VALID);
    expect((await call(app(), "GET", "/v1/jobs", reader.key)).status).toBe(200);
    for (const [method, path, scope] of [
      ["POST", "/v1/video/generations", "write"],
      ["POST", `/v1/jobs/${made.body.task_id}/cancel`, "write"],
      ["POST", `/v1/jobs/${made.body.task_id}/retry`, "write"],
      ["POST", "/v1/batches", "write"],
      ["POST", "/v1/webhooks", "webhooks"],
      ["GET", "/v1/keys", "admin"],
      ["GET", "/v1/upstreams", "admin"],
    ] as const) {
      const answer = await call(
        app(),
        method,
        path,
        reader.key,
        method === "GET" ? undefined : VALID,
      );
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.error.code).toBe("scope_missing");
      expect(answer.body.error.scope).toBe(scope);
      expect(answer.body.error.message).toContain(`\`${scope}\``);
    }
  });

  it("scopes are checked: an unknown one or an empty list is 400 and no key is made", async () => {
    for (const scopes of [["read", "owner"], [], "read"]) {
      const answer = await call(app(), "POST", "/v1/keys", API_KEY, { scopes });
      if (typeof scopes === "string") expect(answer.status).toBe(201);
      else expect(answer.status).toBe(400);
    }
  });

  it("every route the app serves has an entry in the route table, and /openapi.json shows it as the bearer's scope", async () => {
    const served = servedKeys(app().app.routes);
    expect(served.filter((key) => !(key in ROUTE_SCOPES))).toEqual([]);
    const doc = (await (await app().app.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, { security: { bearer?: string[] }[] }>>;
    };
    for (const key of served) {
      const [method, path] = key.split(" ") as [string, string];
      const security = doc.paths[path]?.[method.toLowerCase()]?.security;
      const scope = ROUTE_SCOPES[key];
      expect(security, key).toEqual(scope === null ? [] : [{ bearer: [scope] }]);
    }
    const page = await (await app().app.request("/docs")).text();
    expect(page).toContain("Bearer key with scope <code>write</code>");
  });
});
