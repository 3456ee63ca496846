/** The audited routes (audit-trail.ts collects them): an event replayed, a delivery retried. */
import { projectOf } from "@reelay/core/domain";
import type { ResolvedDeps } from "../../api-deps.ts";
import { type Answer, type AuditRows, pick } from "../../audit-rows.ts";

/** The job an event is about (`<jobId>.<status>`), for the project a replay belongs to. */
async function eventProject(deps: ResolvedDeps, eventId: string): Promise<{ project?: string }> {
  const job = await deps.jobs.get(eventId.split(".")[0] as string);
  const project = job === undefined ? undefined : projectOf(job.source);
  return project === undefined ? {} : { project };
}

export const WEBHOOKS_AUDIT: AuditRows = {
  "POST /v1/events/{id}/replay": {
    action: "event.replayed",
    record: async ({ id, answer, deps }) => ({
      target: id,
      ...(await eventProject(deps, id)),
      change: {
        deliveries: ((answer.data ?? []) as Answer[]).map((d) => ({
          id: d.id,
          subscriber: d.subscriber,
        })),
      },
    }),
  },
  "POST /v1/webhooks/deliveries/{id}/retry": {
    action: "delivery.retried",
    record: async ({ id, answer, deps }) => ({
      target: id,
      ...(typeof answer.eventId === "string" ? await eventProject(deps, answer.eventId) : {}),
      change: pick(answer, ["eventId", "subscriber"]),
    }),
  },
};
