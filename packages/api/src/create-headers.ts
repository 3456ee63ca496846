/**
 * What the contract's create routes (video, chat completions, image edits) take in headers beside
 * the contract's body: X-Idempotency-Key, X-Reelay-Priority, X-Reelay-Queue-Timeout, X-Reelay-Reuse, the job's own
 * webhook, X-Reelay-Retention-Days and X-Reelay-Output-S3-Prefix, each checked, with the caller.
 */
import type { Context } from "hono";
import type { ApiEnv, ResolvedDeps } from "./api-deps.ts";
import type { CreateInput } from "./create.ts";
import { IDEMPOTENCY_HEADER, readIdempotencyKey } from "./idempotency.ts";
import { PRIORITY_HEADER, readPriority } from "./priority.ts";
import { QUEUE_TIMEOUT_HEADER, readQueueTimeoutHeader } from "./queue-timeout.ts";
import { RETENTION_HEADER, readRetentionHeader } from "./retention.ts";
import { OUTPUT_TARGET_HEADER, readOutputTargetHeader } from "./output-target.ts";
import { readReuseHeader, REUSE_HEADER } from "./reuse.ts";
import { HEADER_PATHS, headerWebhook, readJobWebhook } from "./webhook-input.ts";

export async function createHeaders(
  c: Context<ApiEnv>,
  deps: ResolvedDeps,
): Promise<Omit<CreateInput, "body">> {
  const idempotencyKey = readIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER));
  const priority = readPriority(c.req.header(PRIORITY_HEADER));
  const queueTimeoutS = readQueueTimeoutHeader(deps, c.req.header(QUEUE_TIMEOUT_HEADER));
  const reuseMaxAgeS = readReuseHeader(c.req.header(REUSE_HEADER));
  const caller = c.get("caller");
  const webhook = await readJobWebhook(
    deps,
    caller,
    headerWebhook((name) => c.req.header(name)),
    HEADER_PATHS,
  );
  const retentionDays = readRetentionHeader(c.req.header(RETENTION_HEADER));
  const outputTarget = readOutputTargetHeader(deps, c.req.header(OUTPUT_TARGET_HEADER));
  return {
    caller,
    idempotencyKey,
    priority,
    queueTimeoutS,
    reuseMaxAgeS,
    webhook,
    retentionDays,
    outputTarget,
  };
}
