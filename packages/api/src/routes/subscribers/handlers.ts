/**
 * Managed webhook subscribers: POST /v1/webhooks (the secret is answered once), GET /v1/webhooks,
 * DELETE /v1/webhooks/{id}, POST /v1/webhooks/{id}/rotate (a new secret; the old one keeps signing
 * for 24 h). Every key of a project manages the project's; the URL is user input, so the SSRF check
 * applies at once.
 */
import { Hono } from "hono";
import { systemResolver } from "@reelay/core/wiring";
import {
  subscriberInputSchema,
  subscriberRecord,
  checkWebhookUrl,
  ReelayError,
} from "@reelay/core/domain";
import { jsonBodyLimit, parseJson, refuseUnknownFields } from "../../body.ts";
import type { ApiEnv, Caller, WebhookApiDeps } from "../../api-deps.ts";
import { projectOfCaller, sourceOf } from "../../auth.ts";

type Managed = NonNullable<WebhookApiDeps["managed"]>;

/**
 * An id in a path ends in an upper-case letter or a digit, as every reelay id does, so
 * `/v1/webhooks/deliveries` is never taken for one (DELETE on it is then a 405, not a 404).
 */
const SUBSCRIBER_ID = "[0-9A-Za-z_]*[0-9A-Z]";

function readInput(text: string) {
  const body = parseJson(text);
  refuseUnknownFields(body, ["url", "events", "description"]);
  const parsed = subscriberInputSchema().safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = (issue?.path ?? []).join(".");
  throw new ReelayError(
    "invalid_request",
    `${path || "body"}: ${issue?.message ?? "invalid"} (a subscriber is {url, events?, description?}).`,
    { status: 400, path },
  );
}

/** Who makes a subscriber: the key, and its project (the deployment key's have none: all see them). */
function ownerOf(caller: Caller): { ownerKeyId: string; project?: string } {
  const { apiKeyId, project } = sourceOf(caller);
  return { ownerKeyId: apiKeyId, ...(project === undefined ? {} : { project }) };
}

export function subscriberRoutes(managed: Managed, now: () => Date): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const { store } = managed;

  routes.post("/", jsonBodyLimit(16 * 1024), async (c) => {
    const input = readInput(await c.req.text());
    const url = await checkWebhookUrl(input.url, managed.deployment, systemResolver);
    const { record, secret } = await store.create(
      {
        url,
        description: input.description ?? "",
        ...ownerOf(c.get("caller")),
        ...(input.events === undefined ? {} : { events: input.events }),
      },
      now(),
    );
    return c.json({ ...record, secret }, 201);
  });

  routes.get("/", async (c) => {
    const mine = await store.list(projectOfCaller(c.get("caller")));
    return c.json({ data: mine.map(subscriberRecord) });
  });

  routes.delete(`/:id{${SUBSCRIBER_ID}}`, async (c) =>
    c.json(await store.remove(c.req.param("id"), projectOfCaller(c.get("caller")))),
  );

  routes.post(`/:id{${SUBSCRIBER_ID}}/rotate`, async (c) => {
    const owner = projectOfCaller(c.get("caller"));
    const secret = await store.rotate(c.req.param("id"), owner, now());
    return c.json({ ...subscriberRecord(await store.owned(c.req.param("id"), owner)), secret });
  });

  return routes;
}
