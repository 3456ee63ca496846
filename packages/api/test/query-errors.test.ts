/**
 * Each route's query is checked by its zod schema before the route runs (src/query.ts): a bad one
 * is 400 with the code, message and path below, the first problem in the order the route checks
 * its parameters.
 */
import {
  JOB_STATUSES,
  MAX_PAGE_SIZE,
  USAGE_GROUPS,
  WEBHOOK_EVENT_TYPES,
} from "@reelay/core/domain";
import { describe, expect, it } from "vitest";
import { call, type Json, sharedFullApp } from "./support/full-app.ts";
import { API_KEY } from "./support/harness.ts";

const app = sharedFullApp();

const TIME = "must be a day (2026-11-01) or an ISO time with its zone.";
const EVENT_TYPES = WEBHOOK_EVENT_TYPES.join(", ");
const LIMIT = `limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`;

/** [method and path with its query, code, path, message] */
const REFUSED: [string, string, string, string][] = [
  ["GET /v1/jobs?limit=0&cursor=abc", "invalid_query", "limit", LIMIT],
  [
    "GET /v1/jobs?cursor=abc&status=zz",
    "invalid_cursor",
    "cursor",
    "The cursor is not one this service returned; start the listing again without it.",
  ],
  [
    "GET /v1/jobs?status=done",
    "invalid_query",
    "status",
    `status must be one of ${JOB_STATUSES.join(", ")} (got "done").`,
  ],
  [
    "GET /v1/jobs?kind=audio&source=email",
    "invalid_query",
    "kind",
    'kind must be one of video, image (got "audio").',
  ],
  [
    "GET /v1/jobs?expiring_within=0",
    "invalid_query",
    "expiring_within",
    "expiring_within must be seconds from 1 to 315360000.",
  ],
  [
    "GET /v1/jobs/vidtsk_01JAAAAAAAAAAAAAAAAAAAAAAA/content?variant=poster",
    "invalid_query",
    "variant",
    'variant must be one of video, thumbnail, spritesheet (got "poster").',
  ],
  [
    "GET /v1/usage?from=2026-12-01&to=2026-11-01&group_by=week",
    "invalid_request",
    "to",
    "to must be later than from.",
  ],
  ["GET /v1/usage?from=bad&group_by=week", "invalid_request", "from", `from ${TIME}`],
  ["GET /v1/usage?to=2026-11-01T00:00:00", "invalid_request", "to", `to ${TIME}`],
  [
    "GET /v1/usage?group_by=week",
    "invalid_request",
    "group_by",
    `group_by must be one of ${USAGE_GROUPS.join(", ")}.`,
  ],
  ["POST /v1/batches?dry_run=maybe", "invalid_query", "dry_run", "dry_run must be true or false."],
  [
    "GET /v1/models?modality=audio",
    "invalid_query",
    "modality",
    "modality must be one of video, image.",
  ],
  [
    "GET /v1/audit?from=yesterday",
    "invalid_query",
    "from",
    "from must be an ISO time such as 2026-01-31T00:00:00Z.",
  ],
  ["GET /v1/audit?limit=500", "invalid_query", "limit", LIMIT],
  [
    "GET /v1/webhooks/deliveries?event=a%20b",
    "invalid_query",
    "event",
    `event must be an event id such as <jobId>.succeeded or one of ${EVENT_TYPES}.`,
  ],
];

describe("a bad query", () => {
  it.each(REFUSED)("%s is 400 %s at %s", async (route, code, path, message) => {
    const [method, url] = route.split(" ") as [string, string];
    const body = method === "POST" ? { requests: [] } : undefined;
    const answer = await call(app(), method, url, API_KEY, body);
    expect(answer.status).toBe(400);
    expect((answer.body as Json).error).toMatchObject({ code, path, message });
  });
});
