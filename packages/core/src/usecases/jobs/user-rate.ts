/**
 * An end user's rate at the door: a create (or a batch) made for an end user is one call against
 * that user's bucket (the key's user_limits rate and burst, KeyLimitsPort.take on the user's lane),
 * past it 429 rate_limited naming the end user's limit, while the key's other users go on. The
 * key's own rate is the API's, over every call (packages/api/src/rate-limit.ts).
 */
import type { KeyLimitsPort } from "../ports.ts";
import { laneOf } from "../admission/admission-control.ts";
import { rateLimited } from "../../domain/keys/key-limits.ts";
import { forEndUser, userLane } from "../../domain/keys/end-users.ts";
import type { JobSource } from "../../domain/jobs/types.ts";

/** Takes one call from the user's bucket, or throws 429 rate_limited; nothing without a rate. */
export async function takeUserCall(
  limits: KeyLimitsPort | undefined,
  source: Pick<JobSource, "apiKeyId" | "type">,
  user: string | undefined,
  now: Date,
): Promise<void> {
  if (limits === undefined || user === undefined) return;
  const lane = userLane(laneOf({ source: source as JobSource }), user);
  const { rate, burst } = await limits.limitsOf(lane);
  if (rate === undefined || burst === undefined) return;
  const turn = await limits.take(lane, { rate, burst }, now.getTime());
  if (!turn.allowed) throw forEndUser(rateLimited({ rate, burst }, turn.retryAfterS), user);
}
