/**
 * max_queued at the door: a create or a batch counts its jobs into its key's waiting jobs before
 * anything is made, in one conditional write (KeyLimitsPort.claimQueued), or is refused whole with
 * 429 queue_full; jobs made for an end user are counted into that user's waiting jobs too (the
 * key's user_limits.max_queued), and past it refused with the same code naming the user's limit.
 * Each job counted carries `queueCounted` (`userQueueCounted`), so its queue entry is counted back
 * when it leaves the queue (admitted, cancelled, timed out); a job counted for and then not made (a
 * repeat of an id, a refusal further on) is counted back here at once.
 */
import type { KeyLimitsPort } from "../ports.ts";
import { laneOf } from "../admission/admission-control.ts";
import { queueFull } from "../../domain/keys/key-limits.ts";
import { forEndUser, userLane } from "../../domain/keys/end-users.ts";
import type { JobSource } from "../../domain/jobs/types.ts";

/** Places counted for a submission, until each is either taken by a job made or given back. */
export class QueueClaim {
  readonly #limits: KeyLimitsPort;
  /** The lanes counted: the key's when it has max_queued, the end user's when its limits do. */
  readonly #lanes: { key?: string; user?: string };
  #left: number;

  constructor(limits: KeyLimitsPort, lanes: { key?: string; user?: string }, count: number) {
    this.#limits = limits;
    this.#lanes = lanes;
    this.#left = count;
  }

  /** What a job made under this claim records: which of its waits are counted. */
  get counted(): { queueCounted?: true; userQueueCounted?: true } {
    return {
      ...(this.#lanes.key === undefined ? {} : { queueCounted: true as const }),
      ...(this.#lanes.user === undefined ? {} : { userQueueCounted: true as const }),
    };
  }

  /** One place is now held by a job made with `queueCounted`. */
  taken(): void {
    this.#left = Math.max(0, this.#left - 1);
  }

  /** Gives back every place no job took. */
  async giveBack(): Promise<void> {
    const left = this.#left;
    this.#left = 0;
    for (const lane of [this.#lanes.key, this.#lanes.user])
      if (lane !== undefined) await this.#limits.releaseQueued(lane, left);
  }
}

/** Counts `count` on `lane` when it has max_queued: the lane, undefined (none), or the refusal. */
async function claimLane(
  limits: KeyLimitsPort,
  lane: string,
  count: number,
): Promise<{ lane?: string; refused?: number }> {
  const { maxQueued } = await limits.limitsOf(lane);
  if (maxQueued === undefined) return {};
  return (await limits.claimQueued(lane, count, maxQueued)) ? { lane } : { refused: maxQueued };
}

/**
 * Counts `count` more of the source's key's jobs waiting (and of its end user's, `user`), or
 * throws 429 queue_full; undefined when neither has max_queued (nothing is counted). `exists`,
 * asked only on a refusal, says whether what is submitted was made before (a repeat): a repeat is
 * answered, not refused.
 */
export async function claimQueue(
  limits: KeyLimitsPort | undefined,
  source: Pick<JobSource, "apiKeyId" | "type">,
  count: number,
  exists: () => Promise<boolean>,
  user?: string,
): Promise<QueueClaim | undefined> {
  if (limits === undefined || count === 0) return undefined;
  const keyLane = laneOf({ source: source as JobSource });
  const key = await claimLane(limits, keyLane, count);
  if (key.refused !== undefined) {
    if (await exists()) return undefined;
    throw queueFull(key.refused, count);
  }
  const own = user === undefined ? {} : await claimLane(limits, userLane(keyLane, user), count);
  if (own.refused !== undefined && user !== undefined) {
    if (key.lane !== undefined) await limits.releaseQueued(key.lane, count);
    if (await exists()) return undefined;
    throw forEndUser(queueFull(own.refused, count), user);
  }
  if (key.lane === undefined && own.lane === undefined) return undefined;
  return new QueueClaim(
    limits,
    {
      ...(key.lane === undefined ? {} : { key: key.lane }),
      ...(own.lane === undefined ? {} : { user: own.lane }),
    },
    count,
  );
}
