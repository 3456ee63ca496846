/** The audited routes (audit-trail.ts collects them): a batch retried by another key. */
import { type AuditRows, byAnotherKey, pick } from "../../audit-rows.ts";

export const BATCHES_AUDIT: AuditRows = {
  "POST /v1/batches/{id}/retry": {
    action: "batch.retried",
    record: async ({ id, answer, caller, deps }) => {
      const owner = await byAnotherKey(caller, await deps.batches.get(id));
      return owner === undefined
        ? undefined
        : { target: id, ...owner, change: pick(answer, ["total", "counts"]) };
    },
  },
};
