/**
 * max_in_flight at admission: before a job takes an upstream slot, it takes a place among its
 * key's jobs in flight (KeyLimitsPort.acquireInFlight, one conditional write). A key at its limit
 * is passed over for the rest of the dispatch run, lane and all, so the round-robin admits other
 * keys' jobs meanwhile; the key's own wait in the queue until one of its slots is freed, which
 * wakes the dispatcher again. A job made for an end user then takes a place among that user's jobs
 * in flight (the key's user_limits.max_in_flight) the same way; a user at its limit is passed over
 * while the key's other users and its own jobs go on.
 */
import type { KeyLimitsPort } from "../ports.ts";
import type { AdmissionState, QueueEntry } from "../../domain/admission/queue.ts";
import { userLane } from "../../domain/keys/end-users.ts";

/** A place taken for one job, given back when its upstream slot cannot be had after all. */
export interface InFlightPlace {
  giveBack(): Promise<void>;
}

const NO_PLACE: InFlightPlace = { giveBack: async () => undefined };

/**
 * The job's place among its lane's jobs in flight: NO_PLACE when the lane has no max_in_flight,
 * `full` when the lane is at its limit (with when to look again, if a place is about to be given
 * back). `states` are the accounts' items as the run sees them: a place whose job holds no slot
 * there is stale.
 */
async function takeInFlight(
  limits: KeyLimitsPort | undefined,
  lane: string,
  jobId: string,
  now: number,
  states: Iterable<AdmissionState>,
): Promise<InFlightPlace | { full: true; retryInMs?: number }> {
  if (limits === undefined) return NO_PLACE;
  const { maxInFlight } = await limits.limitsOf(lane);
  if (maxInFlight === undefined) return NO_PLACE;
  const held = [...states];
  const holding = (id: string) => held.some((state) => state.held[id] !== undefined);
  const answer = await limits.acquireInFlight(lane, jobId, maxInFlight, now, holding);
  if (!answer.taken)
    return answer.retryInMs === undefined
      ? { full: true }
      : { full: true, retryInMs: answer.retryInMs };
  return { giveBack: () => limits.releaseInFlight(lane, jobId) };
}

/**
 * The entry's places in flight: its key's, then its end user's (when it names one). `full` names the
 * lane at its limit (the key's, or the user's), whose place taken first is given back.
 */
export async function takeInFlightPlaces(
  limits: KeyLimitsPort | undefined,
  entry: Pick<QueueEntry, "lane" | "user" | "jobId">,
  now: number,
  states: Iterable<AdmissionState>,
): Promise<InFlightPlace | { full: true; lane: string; retryInMs?: number }> {
  const held = [...states];
  const keyPlace = await takeInFlight(limits, entry.lane, entry.jobId, now, held);
  if ("full" in keyPlace) return { ...keyPlace, lane: entry.lane };
  if (entry.user === undefined) return keyPlace;
  const lane = userLane(entry.lane, entry.user);
  const userPlace = await takeInFlight(limits, lane, entry.jobId, now, held);
  if ("full" in userPlace) {
    await keyPlace.giveBack();
    return { ...userPlace, lane };
  }
  return {
    giveBack: async () => {
      await userPlace.giveBack();
      await keyPlace.giveBack();
    },
  };
}
