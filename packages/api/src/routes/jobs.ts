/** reelay's own job endpoints: the full record, newest first, with cursor pages. */
import { Hono } from "hono";
import { ReelayError } from "@reelay/core";
import { decodeCursor } from "@reelay/core/jobs/cursor";
import { isJobId } from "@reelay/core/jobs/ids";
import { jobNotFound, type ListOptions } from "@reelay/core/jobs/store";
import { JOB_STATUSES, type JobStatus } from "@reelay/core/jobs/types";
import type { ApiEnv, ResolvedDeps } from "../deps.ts";
import { jobView } from "../views.ts";

const MAX_LIMIT = 100;

function badQuery(path: string, message: string): ReelayError {
  return new ReelayError("invalid_query", message, { status: 400, path });
}

function readLimit(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_LIMIT) {
    throw badQuery("limit", `limit must be an integer from 1 to ${MAX_LIMIT}.`);
  }
  return Number(raw);
}

function readStatus(raw: string | undefined): JobStatus | undefined {
  if (raw === undefined) return undefined;
  if (!(JOB_STATUSES as readonly string[]).includes(raw)) throw badQuery("status", `status must be one of ${JOB_STATUSES.join(", ")}.`);
  return raw as JobStatus;
}

/** A cursor must name a listing position this service could have returned, or DynamoDB would be asked nonsense. */
function readCursor(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const position = decodeCursor(raw);
  if (!isJobId(position.id) || !position.sk.endsWith(`#${position.id}`)) {
    throw new ReelayError("invalid_cursor", "The cursor is not one this service returned; start the listing again without it.", { status: 400, path: "cursor" });
  }
  return raw;
}

export function jobRoutes(deps: ResolvedDeps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const signer = { objects: deps.objects, ttlS: deps.presignTtlS, now: deps.now };

  routes.get("/", async (c) => {
    const limit = readLimit(c.req.query("limit"));
    const cursor = readCursor(c.req.query("cursor"));
    const status = readStatus(c.req.query("status"));
    const options: ListOptions = {
      ...(limit === undefined ? {} : { limit }),
      ...(cursor === undefined ? {} : { cursor }),
      ...(status === undefined ? {} : { status }),
    };
    const page = await deps.jobs.list(options);
    const data = await Promise.all(page.jobs.map((job) => jobView(job, signer)));
    return c.json({ data, next_cursor: page.cursor ?? null });
  });

  routes.get("/:id", async (c) => {
    const id = c.req.param("id");
    const job = await deps.jobs.get(id);
    if (job === undefined) throw jobNotFound(id);
    return c.json(await jobView(job, signer));
  });

  return routes;
}
