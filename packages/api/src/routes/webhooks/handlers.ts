/**
 * The delivery log and its two levers, for the deployment's own key: every delivery with every
 * attempt (GET /v1/webhooks/deliveries), one more attempt of a delivery now
 * (POST /v1/webhooks/deliveries/{id}/retry), and an event sent again (POST /v1/events/{id}/replay).
 */
import { Hono } from "hono";
import * as z from "zod";
import {
  type Delivery,
  DELIVERY_STATUSES,
  deliveryNotFound,
  safeUrl,
  WEBHOOK_EVENT_TYPES,
  ReelayError,
} from "@reelay/core/domain";
import { eventNotFound, type JobStorePort, replay } from "@reelay/core/usecases";
import { forbidden, isAdmin } from "../../auth.ts";
import { jsonBodyLimit, parseJson, refuseUnknownFields } from "../../body.ts";
import type { ApiEnv, WebhookApiDeps } from "../../api-deps.ts";
import { limitParam, oneOfParam, validQuery } from "../../query.ts";

/** A delivery as the log shows it: no body, and the URL without its query (it may hold a token). */
function deliveryView(delivery: Delivery) {
  const { body: _body, url, traceparent: _traceparent, ...rest } = delivery;
  return { ...rest, url: safeUrl(url) };
}

const EVENT_ID = /^[A-Za-z0-9_.-]{1,100}$/;

const isEventType = (raw: string) => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(raw);

/** `event=`: an event's id (`<jobId>.succeeded`) or an event type (`Generation Failed`). */
const eventParam = z
  .string()
  .refine(
    (raw) => isEventType(raw) || EVENT_ID.test(raw),
    `event must be an event id such as <jobId>.succeeded or one of ${WEBHOOK_EVENT_TYPES.join(", ")}.`,
  )
  .transform((raw) => (isEventType(raw) ? { eventType: raw } : { eventId: raw }))
  .optional();

/** GET /v1/webhooks/deliveries's query, checked in this order. */
const deliveriesQuery = z.object({
  status: oneOfParam("status", DELIVERY_STATUSES),
  event: eventParam,
  limit: limitParam,
});

export function deliveryRoutes(webhooks: WebhookApiDeps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();

  routes.use("*", async (c, next) => {
    if (!isAdmin(c.get("caller")))
      throw forbidden("Only the deployment's own API key reads and retries webhook deliveries.");
    await next();
  });

  routes.get("/", validQuery(deliveriesQuery), async (c) => {
    const { status, event, limit } = c.req.valid("query");
    const found = await webhooks.store.list({
      ...(status === undefined ? {} : { status }),
      ...event,
      ...(limit === undefined ? {} : { limit }),
    });
    return c.json({ data: found.map(deliveryView) });
  });

  routes.post("/:id/retry", async (c) => {
    const id = c.req.param("id");
    if (!/^dlv_[0-9A-Z]{26}$/.test(id)) throw deliveryNotFound(id.slice(0, 60));
    const retried = await webhooks.store.retry(id, webhooks.now());
    webhooks.wake?.();
    return c.json(deliveryView(retried), 202);
  });

  return routes;
}

function readSubscriber(text: string): string | undefined {
  if (text.trim() === "") return undefined;
  const body = parseJson(text);
  refuseUnknownFields(body, ["subscriber"]);
  const subscriber =
    body === null || typeof body !== "object"
      ? undefined
      : (body as { subscriber?: unknown }).subscriber;
  if (subscriber === undefined || (typeof subscriber === "string" && subscriber.length <= 100))
    return subscriber;
  throw new ReelayError("invalid_request", "subscriber must be a subscriber id such as config:…", {
    status: 400,
    path: "subscriber",
  });
}

/** POST /v1/events/{id}/replay; /v1/events is the deployment's own key's (ownership.ts). */
export function replayRoutes(webhooks: WebhookApiDeps, jobs: JobStorePort): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.post("/:id/replay", jsonBodyLimit(16 * 1024), async (c) => {
    const eventId = c.req.param("id");
    // A malformed id names no event: the same 404 as an unknown one.
    if (!EVENT_ID.test(eventId)) throw eventNotFound(eventId.slice(0, 60));
    const subscriber = readSubscriber(await c.req.text());
    const made = await replay({ ...webhooks, jobs }, eventId, subscriber);
    webhooks.wake?.();
    return c.json({ data: made.map(deliveryView) }, 202);
  });
  return routes;
}
