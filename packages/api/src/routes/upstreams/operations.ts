/** The OpenAPI entry of GET /v1/upstreams: the pool's accounts as an operator sees them. */
import * as z from "zod";
import type { Operation } from "../../openapi/operation.ts";
import { ADMIN_ONLY, UNAUTHORIZED } from "../../openapi/examples.ts";

const UpstreamAccountSchema = z.object({
  name: z.string().describe("The account's name in REELAY_UPSTREAMS; `default` without a pool."),
  models: z.array(z.string()).nullable().describe("The models it serves; null = every model."),
  weight: z.number().describe("Its share of the pool under `balanced` routing."),
  state: z
    .enum(["closed", "open", "half_open"])
    .describe("Its circuit: open takes no new create; half_open lets one probe through."),
  open_until: z.string().nullable().describe("While open, when the cool-down ends."),
  limit: z.number().describe("Upstream tasks in flight at most on this account, now."),
  limit_source: z
    .enum(["configured", "learned"])
    .describe("`concurrency` in REELAY_UPSTREAMS, or learned from the account's 429s."),
  rate: z.number().nullable().describe("Creates per second at most; null = as slots free up."),
  held_back_until: z
    .string()
    .nullable()
    .describe("Set while its create rate, a Retry-After or a refused create holds it back."),
  in_flight: z.number().describe("Its upstream tasks in flight (admission slots held)."),
  queue_share: z
    .number()
    .describe(
      "Its part of all upstream tasks in flight now, 0..1 (0 when none is): where the queue is going.",
    ),
  recent: z
    .object({
      window_s: z.number().describe("The window the counts cover, seconds (the last 15 minutes)."),
      rate_limited: z.number().describe("Creates it answered 429."),
      errors: z
        .number()
        .describe("Creates that failed there: refused, reset, timed out, a 5xx, a refused key."),
    })
    .describe("Its problems over the recent window, counted by every process."),
  last_error: z
    .object({
      kind: z.enum(["rate_limited", "error"]),
      code: z.string().describe("reelay's error code for it."),
      message: z.string().describe("Short, with keys, credentials and query strings taken out."),
      at: z.string(),
    })
    .nullable()
    .describe("Its most recent problem, however old; null when it never had one."),
});

const UpstreamsSchema = z
  .object({
    object: z.literal("list"),
    routing: z.enum(["balanced", "ordered", "cheapest"]).describe("REELAY_ROUTING."),
    in_flight: z.number().describe("Upstream tasks in flight over the whole pool."),
    queued: z.number().describe("Jobs waiting for a slot on any account."),
    data: z.array(UpstreamAccountSchema),
  })
  .describe("The upstream accounts, in REELAY_UPSTREAMS's order.");

export const UPSTREAM_OPERATIONS: Record<string, Operation> = {
  "GET /v1/upstreams": {
    summary: "The upstream accounts (admin key only)",
    description:
      "One entry per upstream account (REELAY_UPSTREAMS; one named `default` otherwise): the models it serves, its weight, its circuit and cool-down, its limit and where that comes from, its create rate, its tasks in flight and its share of all in flight, its 429s and failed creates over the last 15 minutes and its last error. Keys and URLs are never shown.",
    tag: "jobs",
    auth: true,
    response: {
      status: 200,
      contentType: "application/json",
      schema: UpstreamsSchema,
      example: {
        object: "list",
        routing: "balanced",
        in_flight: 9,
        queued: 120,
        data: [
          {
            name: "alpha",
            models: null,
            weight: 1,
            state: "closed",
            open_until: null,
            limit: 4,
            limit_source: "learned",
            rate: null,
            held_back_until: null,
            in_flight: 4,
            queue_share: 0.444,
            recent: { window_s: 900, rate_limited: 2, errors: 0 },
            last_error: {
              kind: "rate_limited",
              code: "upstream_rate_limited",
              message: "The upstream answered 429 to POST /video/generations.",
              at: "2026-11-27T10:02:11.000Z",
            },
          },
          {
            name: "beta",
            models: ["gamma-3.1"],
            weight: 2,
            state: "open",
            open_until: "2026-11-27T10:05:40.000Z",
            limit: 8,
            limit_source: "configured",
            rate: 2,
            held_back_until: null,
            in_flight: 5,
            queue_share: 0.556,
            recent: { window_s: 900, rate_limited: 0, errors: 3 },
            last_error: {
              kind: "error",
              code: "upstream_unavailable",
              message: "connect ECONNREFUSED 10.0.0.7:443",
              at: "2026-11-27T10:05:35.000Z",
            },
          },
        ],
      },
      description: "The accounts now.",
    },
    errors: [UNAUTHORIZED, ADMIN_ONLY],
  },
};
