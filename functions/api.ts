/**
 * The one API function behind every route: the same hono app the local stack serves. Reelay's own
 * Bearer key is an SST secret bound to this function only. It has no subscriber secrets: a replay
 * goes to the subscribers the event was delivered to before. A job it makes gets the request's
 * segment in its X-Ray trace (support/xray.ts).
 */
import { apiDepsFrom, createApp } from "@reelay/api";
import { handle } from "hono/aws-lambda";
import { awsProcess, awsStopper, awsWiring } from "./support/deps.ts";
import type { JobQueue } from "@reelay/core/usecases";
import { wireWebhooks } from "@reelay/core/wiring";
import { withMetrics } from "./support/metrics.ts";
import { readSecret } from "./support/secrets.ts";
import { sendApiSegment } from "./support/xray.ts";

const wiring = await awsWiring({ callsUpstream: false });
const { config, clients } = awsProcess();
const app = createApp(
  apiDepsFrom(wiring, {
    // Into the admission queue; the Dispatch function starts the executions.
    starter: tracedStarter(wiring.queue),
    stopper: awsStopper(),
    adminKey: await readSecret("REELAY_API_KEY"),
    // API Gateway ends a request at 30 s (and so does this function): an images/edits wait stays well inside.
    maxWaitS: 20,
    // API Gateway buffers a response whole: a job's or batch's stream answers what it has (or after
    // 20 s, nothing) and the client reconnects with Last-Event-ID (@reelay/api's
    // routes/follow/handlers.ts).
    streamMaxMs: 20_000,
    // The delivery log and managed subscribers; what they make, the webhook sweep sends within a minute.
    webhooks: wireWebhooks({ config, platform: "aws", clients }).api,
  }),
);

/** The request this invocation serves (one at a time per Lambda instance), for its trace segment. */
let request = { method: "", path: "", startedAt: 0 };

function tracedStarter(inner: JobQueue): JobQueue {
  return {
    async start(job) {
      await inner.start(job);
      sendApiSegment(awsProcess().tracer, job, request);
    },
  };
}

const honoHandler = handle(app);

/** The method and path of an API Gateway event (HTTP API v2; REST v1 as a fallback). */
function requestOf(event: unknown): { method: string; path: string } {
  const e = event as {
    requestContext?: { http?: { method?: string; path?: string } };
    httpMethod?: string;
    path?: string;
  };
  return {
    method: e.requestContext?.http?.method ?? e.httpMethod ?? "",
    path: e.requestContext?.http?.path ?? e.path ?? "",
  };
}

// Jobs made and ended here, and budget refusals, written at the end of each request.
const measured = withMetrics(awsProcess().metrics, honoHandler);

export const handler: typeof honoHandler = (event, context) => {
  request = { ...requestOf(event), startedAt: Date.now() };
  return measured(event, context);
};
