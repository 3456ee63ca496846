/**
 * The authorization matrix, proven route by route: every route the app serves (its /openapi.json)
 * is called with no key, a revoked key, an expired key, the deployment's key and a key of each
 * scope of project P, against an object of P and one of project Q where the route names one, and
 * each answer is checked against the table below (200 and the like, 401 unauthorized, 401
 * key_expired, 403 scope_missing, 403 forbidden, 404). A route served without an entry here fails
 * the test. One stack (dynalite, s3rver) for the file.
 *
 * A stored key with the admin scope: the routes that span every project (keys and budgets, the
 * delivery log, replays, admission, upstreams, metrics) stay the deployment key's, 403 `forbidden`
 * whatever the id, so they tell nothing of another project's objects; a key of a project making
 * keys would also escape the budget and limits its own key was given. The audit log is per project:
 * a project's admin key lists its project's records only (`ownProjectOnly`).
 */
import { SCOPES, type Scope } from "@reelay/core/domain";
import { describe, expect, it } from "vitest";
import { servedKeys } from "../src/openapi/document.ts";
import { call, type FullApp, newKey, sharedFullApp } from "./support/full-app.ts";
import { API_KEY, VALID } from "./support/harness.ts";
import { solidPng } from "../../simulator/src/png.ts";

const app = sharedFullApp();

const IMAGE = {
  model: "deltaq2-image",
  messages: [{ role: "user", content: "a lighthouse at dusk" }],
  modalities: ["image", "text"],
};

/** A project's objects: made once (read-only routes) or per call (routes that change them). */
interface Owner {
  project: string;
  /** A key of the project with every scope, to make its objects. */
  key: string;
  video: string;
  image: string;
  batch: string;
  /** An upload of the project (POST /v1/uploads). */
  upload: string;
}

type Made = { path: string; body?: unknown };

interface Entry {
  /** The scope the route needs, written here apart from the route table so a wrong one shows. */
  scope: Scope | null;
  /** The call, against `owner`'s objects (some made fresh for this call). */
  make: (owner: Owner) => Promise<Made> | Made;
  /** The route names an object of a project: another project's is 404. */
  owned?: boolean;
  /** Only the deployment's own key, even for a stored key with the scope (it spans every project). */
  deploymentOnly?: boolean;
  /** The deployment key is a project of its own here (the subscribers it manages are its own). */
  adminIsOwnProject?: boolean;
  /** A listing whose every record names its project: a stored key's shows only its own. */
  ownProjectOnly?: boolean;
  /** What an allowed call answers. */
  ok: number[];
}

async function freshJob(owner: Owner): Promise<string> {
  const made = await call(app(), "POST", "/v1/video/generations", owner.key, VALID);
  return made.body.task_id as string;
}

async function freshBatch(owner: Owner): Promise<string> {
  const made = await call(app(), "POST", "/v1/batches", owner.key, { requests: [VALID] });
  return made.body.id as string;
}

async function freshSubscriber(owner: Owner): Promise<string> {
  const made = await call(app(), "POST", "/v1/webhooks", owner.key, {
    url: "https://example.com/hook",
  });
  return made.body.id as string;
}

const freshKey = async () => (await newKey(app())).id;

const EXAMPLE_DELIVERY = "dlv_01JD8Z9Q6W4S7Y3K2M1N0P5R8T";
const EXAMPLE_EVENT = "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T.succeeded";

/** A page anyone may read: no key needed, 200 for every caller. */
function publicPage(path: string): Entry {
  return { scope: null, make: () => ({ path }), ok: [200] };
}

/** Every route's expected answers; keyed like /openapi.json's operations. */
const MATRIX: Record<string, Entry> = {
  "GET /": publicPage("/"),
  "GET /dashboard/app.js": publicPage("/dashboard/app.js"),
  "GET /dashboard/client.js": publicPage("/dashboard/client.js"),
  "GET /dashboard/models.json": publicPage("/dashboard/models.json"),
  "GET /dashboard/style.css": publicPage("/dashboard/style.css"),
  "GET /docs": publicPage("/docs"),
  "GET /healthz": publicPage("/healthz"),
  "GET /openapi.json": publicPage("/openapi.json"),
  "GET /metrics": {
    scope: "admin",
    make: () => ({ path: "/metrics" }),
    deploymentOnly: true,
    ok: [200],
  },

  // The matrix's call is not an MCP client (no `Accept: text/event-stream`): past authorization,
  // the MCP transport's own 406. packages/mcp/test/http.test.ts drives it with the SDK's client.
  "POST /mcp": {
    scope: "read",
    make: () => ({ path: "/mcp", body: { jsonrpc: "2.0", id: 1, method: "tools/list" } }),
    ok: [406],
  },

  "POST /v1/video/generations": {
    scope: "write",
    make: () => ({ path: "/v1/video/generations", body: VALID }),
    ok: [200],
  },
  "GET /v1/video/tasks/{taskId}": {
    scope: "read",
    make: (o) => ({ path: `/v1/video/tasks/${o.video}` }),
    owned: true,
    ok: [200],
  },
  "POST /v1/chat/completions": {
    scope: "write",
    make: () => ({ path: "/v1/chat/completions", body: IMAGE }),
    ok: [200],
  },
  "GET /v1/image/tasks/{taskId}": {
    scope: "read",
    make: (o) => ({ path: `/v1/image/tasks/${o.image}` }),
    owned: true,
    ok: [200],
  },
  // An empty form: an allowed caller gets the route's own 400, past authorization.
  "POST /v1/images/edits": {
    scope: "write",
    make: () => ({ path: "/v1/images/edits", body: {} }),
    ok: [400],
  },
  "GET /v1/models": {
    scope: "read",
    make: () => ({ path: "/v1/models" }),
    ok: [200],
  },

  "GET /v1/jobs": {
    scope: "read",
    make: () => ({ path: "/v1/jobs" }),
    ok: [200],
  },
  "GET /v1/jobs/{id}": {
    scope: "read",
    make: (o) => ({ path: `/v1/jobs/${o.video}` }),
    owned: true,
    ok: [200],
  },
  "GET /v1/jobs/{id}/events": {
    scope: "read",
    make: (o) => ({ path: `/v1/jobs/${o.video}/events` }),
    owned: true,
    ok: [200],
  },
  // A queued job has no content yet: past authorization the route's own 404 (content_not_found).
  "GET /v1/jobs/{id}/content": {
    scope: "read",
    make: (o) => ({ path: `/v1/jobs/${o.video}/content?variant=thumbnail` }),
    owned: true,
    ok: [404],
  },
  "POST /v1/jobs/{id}/cancel": {
    scope: "write",
    make: async (o) => ({ path: `/v1/jobs/${await freshJob(o)}/cancel` }),
    owned: true,
    ok: [200],
  },
  // A queued job is not retried: past authorization the route's own 409.
  "POST /v1/jobs/{id}/retry": {
    scope: "write",
    make: async (o) => ({ path: `/v1/jobs/${await freshJob(o)}/retry` }),
    owned: true,
    ok: [409],
  },
  "GET /v1/batches": {
    scope: "read",
    make: () => ({ path: "/v1/batches" }),
    ok: [200],
  },
  "POST /v1/batches": {
    scope: "write",
    make: () => ({ path: "/v1/batches", body: { requests: [VALID] } }),
    ok: [200],
  },
  "GET /v1/batches/{id}": {
    scope: "read",
    make: (o) => ({ path: `/v1/batches/${o.batch}` }),
    owned: true,
    ok: [200],
  },
  "GET /v1/batches/{id}/results": {
    scope: "read",
    make: (o) => ({ path: `/v1/batches/${o.batch}/results` }),
    owned: true,
    ok: [200],
  },
  "GET /v1/batches/{id}/events": {
    scope: "read",
    make: (o) => ({ path: `/v1/batches/${o.batch}/events` }),
    owned: true,
    ok: [200],
  },
  "POST /v1/batches/{id}/cancel": {
    scope: "write",
    make: async (o) => ({ path: `/v1/batches/${await freshBatch(o)}/cancel` }),
    owned: true,
    ok: [200],
  },
  "POST /v1/batches/{id}/retry": {
    scope: "write",
    make: async (o) => ({ path: `/v1/batches/${await freshBatch(o)}/retry` }),
    owned: true,
    ok: [409],
  },
  "GET /v1/usage": {
    scope: "read",
    make: () => ({ path: "/v1/usage" }),
    ok: [200],
  },
  "GET /v1/events": {
    scope: "read",
    make: () => ({ path: "/v1/events" }),
    deploymentOnly: true,
    ok: [200],
  },

  "POST /v1/webhooks": {
    scope: "webhooks",
    make: () => ({ path: "/v1/webhooks", body: { url: "https://example.com/hook" } }),
    ok: [201],
  },
  "GET /v1/webhooks": {
    scope: "webhooks",
    make: () => ({ path: "/v1/webhooks" }),
    ok: [200],
  },
  "DELETE /v1/webhooks/{id}": {
    scope: "webhooks",
    make: async (o) => ({ path: `/v1/webhooks/${await freshSubscriber(o)}` }),
    owned: true,
    adminIsOwnProject: true,
    ok: [200],
  },
  "POST /v1/webhooks/{id}/rotate": {
    scope: "webhooks",
    make: async (o) => ({ path: `/v1/webhooks/${await freshSubscriber(o)}/rotate` }),
    owned: true,
    adminIsOwnProject: true,
    ok: [200],
  },
  "GET /v1/webhooks/deliveries": {
    scope: "admin",
    make: () => ({ path: "/v1/webhooks/deliveries" }),
    deploymentOnly: true,
    ok: [200],
  },
  // No such delivery or event: past authorization the route's own 404.
  "POST /v1/webhooks/deliveries/{id}/retry": {
    scope: "admin",
    make: () => ({ path: `/v1/webhooks/deliveries/${EXAMPLE_DELIVERY}/retry` }),
    deploymentOnly: true,
    ok: [404],
  },
  "POST /v1/events/{id}/replay": {
    scope: "admin",
    make: () => ({ path: `/v1/events/${EXAMPLE_EVENT}/replay` }),
    deploymentOnly: true,
    ok: [404],
  },

  "POST /v1/keys": {
    scope: "admin",
    make: () => ({ path: "/v1/keys", body: {} }),
    deploymentOnly: true,
    ok: [201],
  },
  "GET /v1/keys": {
    scope: "admin",
    make: () => ({ path: "/v1/keys" }),
    deploymentOnly: true,
    ok: [200],
  },
  "DELETE /v1/keys/{id}": {
    scope: "admin",
    make: async () => ({ path: `/v1/keys/${await freshKey()}` }),
    deploymentOnly: true,
    ok: [200],
  },
  "PUT /v1/keys/{id}/budget": {
    scope: "admin",
    make: async () => ({ path: `/v1/keys/${await freshKey()}/budget`, body: { amount: 5 } }),
    deploymentOnly: true,
    ok: [200],
  },
  "DELETE /v1/keys/{id}/budget": {
    scope: "admin",
    make: async () => ({ path: `/v1/keys/${await freshKey()}/budget` }),
    deploymentOnly: true,
    ok: [200],
  },
  "PUT /v1/keys/{id}/limits": {
    scope: "admin",
    make: async () => ({ path: `/v1/keys/${await freshKey()}/limits`, body: { rate: 5 } }),
    deploymentOnly: true,
    ok: [200],
  },
  "DELETE /v1/keys/{id}/limits": {
    scope: "admin",
    make: async () => ({ path: `/v1/keys/${await freshKey()}/limits` }),
    deploymentOnly: true,
    ok: [200],
  },
  "POST /v1/keys/{id}/webhook-secret": {
    scope: "admin",
    make: async () => ({ path: `/v1/keys/${await freshKey()}/webhook-secret` }),
    deploymentOnly: true,
    ok: [200],
  },
  "GET /v1/admission": {
    scope: "admin",
    make: () => ({ path: "/v1/admission" }),
    deploymentOnly: true,
    ok: [200],
  },
  "GET /v1/upstreams": {
    scope: "admin",
    make: () => ({ path: "/v1/upstreams" }),
    deploymentOnly: true,
    ok: [200],
  },
  // An empty JSON declaration: an allowed caller gets the route's own 400, past authorization.
  "POST /v1/uploads": {
    scope: "write",
    make: () => ({ path: "/v1/uploads", body: {} }),
    ok: [400],
  },
  "GET /v1/uploads/{id}": {
    scope: "read",
    make: (o) => ({ path: `/v1/uploads/${o.upload}` }),
    owned: true,
    ok: [200],
  },
  // The upload is complete already: completing it again answers it.
  "POST /v1/uploads/{id}/complete": {
    scope: "write",
    make: (o) => ({ path: `/v1/uploads/${o.upload}/complete` }),
    owned: true,
    ok: [200],
  },
  "GET /v1/audit": {
    scope: "admin",
    make: () => ({ path: "/v1/audit?limit=100" }),
    ownProjectOnly: true,
    ok: [200],
  },
};

/** Who calls: no key, a revoked or expired key, the deployment's key, or a key of P with one scope. */
type Actor =
  | { kind: "refused"; name: string; key: string | undefined; code: string }
  | { kind: "deployment"; name: string; key: string }
  | { kind: "scoped"; name: string; key: string; scope: Scope };

type Expected = { status: number[]; code?: string };

function expected(entry: Entry, actor: Actor, sameProject: boolean): Expected {
  const { scope } = entry;
  if (scope === null) return { status: entry.ok };
  if (actor.kind === "refused") return { status: [401], code: actor.code };
  if (actor.kind === "deployment") {
    return entry.owned === true && entry.adminIsOwnProject === true
      ? { status: [404] }
      : { status: entry.ok };
  }
  if (actor.scope !== scope) return { status: [403], code: "scope_missing" };
  if (entry.deploymentOnly === true) return { status: [403], code: "forbidden" };
  if (entry.owned === true && !sameProject) return { status: [404] };
  return { status: entry.ok };
}

/** Status and error code only: the event stream's answer never ends, so its body is not read. */
async function answer(full: FullApp, method: string, made: Made, key: string | undefined) {
  const response = await full.app.request(made.path, {
    method,
    headers: {
      ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }),
      "Content-Type": "application/json",
    },
    ...(made.body === undefined ? {} : { body: JSON.stringify(made.body) }),
  });
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    await response.body?.cancel();
    return { status: response.status, code: undefined, projects: [] };
  }
  const text = await response.text();
  let body: { error?: { code?: string }; data?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = {};
  }
  const data = Array.isArray(body.data) ? (body.data as { project?: string }[]) : [];
  return { status: response.status, code: body.error?.code, projects: data.map((r) => r.project) };
}

/** A PNG uploaded with `key`: its upload id. */
async function uploaded(key: string): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(solidPng(key))], { type: "image/png" }), "a.png");
  const response = await app().app.request("/v1/uploads", {
    method: "POST",
    headers: { Authorization: `Bearer ${key}` },
    body: form,
  });
  return ((await response.json()) as { id: string }).id;
}

async function ownerOf(project: string): Promise<Owner> {
  const { key } = await newKey(app(), { project, scopes: [...SCOPES] });
  const video = await call(app(), "POST", "/v1/video/generations", key, VALID);
  const image = await call(app(), "POST", "/v1/chat/completions", key, IMAGE);
  const batch = await call(app(), "POST", "/v1/batches", key, { requests: [VALID] });
  return {
    upload: await uploaded(key),
    project,
    key,
    video: video.body.task_id,
    image: image.body.task_id,
    batch: batch.body.id,
  };
}

describe("the authorization matrix", () => {
  it("every route the app serves has an entry in the matrix", () => {
    const served = servedKeys(app().app.routes);
    expect(served.filter((key) => MATRIX[key] === undefined)).toEqual([]);
  });

  it("every route, every caller, an object of each project: 0 answers differ from the table", async () => {
    const full = app();
    const own = await ownerOf("matrix-p");
    const other = await ownerOf("matrix-q");
    const revoked = await newKey(full, { project: "matrix-p", scopes: [...SCOPES] });
    expect((await call(full, "DELETE", `/v1/keys/${revoked.id}`, API_KEY)).status).toBe(200);
    const expiresAt = Date.now() + 1_000;
    const expired = await newKey(full, {
      project: "matrix-p",
      scopes: [...SCOPES],
      expires_at: new Date(expiresAt).toISOString(),
    });
    const actors: Actor[] = [
      { kind: "refused", name: "no key", key: undefined, code: "unauthorized" },
      { kind: "refused", name: "revoked", key: revoked.key, code: "unauthorized" },
      { kind: "refused", name: "expired", key: expired.key, code: "key_expired" },
      { kind: "deployment", name: "deployment", key: API_KEY },
    ];
    for (const scope of SCOPES) {
      const { key } = await newKey(full, { project: "matrix-p", scopes: [scope] });
      actors.push({ kind: "scoped", name: scope, key, scope });
    }

    // Made through the admin routes above, so the audit log holds records of both projects.
    await newKey(full, { project: "matrix-q" });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now() + 20)));
    const differences: string[] = [];
    let checked = 0;
    for (const key of servedKeys(full.app.routes)) {
      const entry = MATRIX[key];
      if (entry === undefined) continue;
      const [method] = key.split(" ") as [string];
      const owners = entry.owned === true ? [own, other] : [own];
      for (const owner of owners) {
        for (const actor of actors) {
          const made = await entry.make(owner);
          const got = await answer(full, method, made, actor.key);
          const want = expected(entry, actor, owner === own);
          checked += 1;
          const leaked =
            entry.ownProjectOnly === true && actor.kind === "scoped"
              ? got.projects.filter((project) => project !== own.project)
              : [];
          if (
            !want.status.includes(got.status) ||
            (want.code !== undefined && got.code !== want.code) ||
            leaked.length > 0
          ) {
            differences.push(
              `${key} as ${actor.name} on ${owner.project}'s: got ${got.status} ${got.code ?? ""}${leaked.length > 0 ? ` listing ${leaked.join(",")}` : ""}, want ${want.status.join("|")} ${want.code ?? ""}`,
            );
          }
        }
      }
    }
    expect(differences).toEqual([]);
    expect(checked).toBeGreaterThan(300);
  }, 240_000);
});
