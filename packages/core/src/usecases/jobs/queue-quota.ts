/**
 * max_queued at the door: a create or a batch counts its jobs into its key's waiting jobs before
 * anything is made, in one conditional write (KeyLimitsPort.claimQueued), or is refused whole with
 * 429 queue_full. Each job counted carries `queueCounted`, so its queue entry is counted back when
 * it leaves the queue (admitted, cancelled, timed out); a job counted for and then not made (a
 * repeat of an id, a refusal further on) is counted back here at once.
 */
import type { KeyLimitsPort } from "../ports.ts";
import { laneOf } from "../admission/admission-control.ts";
import { queueFull } from "../../domain/keys/key-limits.ts";
import type { JobSource } from "../../domain/jobs/types.ts";

/** Places counted for a submission, until each is either taken by a job made or given back. */
export class QueueClaim {
  readonly #limits: KeyLimitsPort;
  readonly #lane: string;
  #left: number;

  constructor(limits: KeyLimitsPort, lane: string, count: number) {
    this.#limits = limits;
    this.#lane = lane;
    this.#left = count;
  }

  /** One place is now held by a job made with `queueCounted`. */
  taken(): void {
    this.#left = Math.max(0, this.#left - 1);
  }

  /** Gives back every place no job took. */
  async giveBack(): Promise<void> {
    const left = this.#left;
    this.#left = 0;
    await this.#limits.releaseQueued(this.#lane, left);
  }
}

/**
 * Counts `count` more of the source's key's jobs waiting, or throws 429 queue_full; undefined when
 * the key has no max_queued (nothing is counted). `exists`, asked only on a refusal, says whether
 * what is submitted was made before (a repeat): a repeat is answered, not refused.
 */
export async function claimQueue(
  limits: KeyLimitsPort | undefined,
  source: Pick<JobSource, "apiKeyId" | "type">,
  count: number,
  exists: () => Promise<boolean>,
): Promise<QueueClaim | undefined> {
  if (limits === undefined || count === 0) return undefined;
  const lane = laneOf({ source: source as JobSource });
  const { maxQueued } = await limits.limitsOf(lane);
  if (maxQueued === undefined) return undefined;
  if (await limits.claimQueued(lane, count, maxQueued)) return new QueueClaim(limits, lane, count);
  if (await exists()) return undefined;
  throw queueFull(maxQueued, count);
}
