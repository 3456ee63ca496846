/** The audited routes (audit-trail.ts collects them): a job retried by another key. */
import { type AuditRows, byAnotherKey } from "../../audit-rows.ts";

export const JOBS_AUDIT: AuditRows = {
  "POST /v1/jobs/{id}/retry": {
    action: "job.retried",
    record: async ({ id, answer, caller, deps }) => {
      const owner = await byAnotherKey(caller, await deps.jobs.get(id));
      return owner === undefined ? undefined : { target: id, ...owner, change: { job: answer.id } };
    },
  },
};
