/** The audited routes (audit-trail.ts collects them): subscribers added, removed, rotated. */
import { safeUrl } from "@reelay/core/domain";
import { type Answer, type AuditRows, onAnswered, pick, text } from "../../audit-rows.ts";
import { isAdmin, projectOfCaller } from "../../auth.ts";

/** A subscriber belongs to its maker's project; the deployment key's own have none. */
const onSubscriber = (change: (answer: Answer) => Record<string, unknown>) =>
  onAnswered(
    ({ answer, caller }) =>
      text(answer.project) ?? (isAdmin(caller) ? undefined : projectOfCaller(caller)),
    change,
  );

const subscriberChange = (answer: Answer) => ({
  ...(typeof answer.url === "string" ? { url: safeUrl(answer.url) } : {}),
  ...pick(answer, ["events", "description"]),
});

export const SUBSCRIBERS_AUDIT: AuditRows = {
  "POST /v1/webhooks": { action: "subscriber.added", record: onSubscriber(subscriberChange) },
  "DELETE /v1/webhooks/{id}": {
    action: "subscriber.removed",
    record: onSubscriber(subscriberChange),
  },
  "POST /v1/webhooks/{id}/rotate": {
    action: "subscriber.rotated",
    record: onSubscriber(() => ({})),
  },
};
