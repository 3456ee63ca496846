/**
 * Admission's items in the jobs table (item-keys.ts): one admission item (`held`: {jobId: heldAt},
 * the learned limit, the earliest next create `nextAdmitAt`, the round-robin `cursor`) and one
 * queue entry per waiting job. Every change is one conditional single-item write: no transactions,
 * which dynalite lacks.
 *
 * Entries sort by lane (the API key), then stream (its jobs for no end user, then each end user's),
 * then priority, then age, so the head of the lane after the cursor is one Query with Limit 1: that
 * is the round-robin across keys, and the head of the stream after the cursor's is the one across a
 * key's end users.
 */
import type { AcquireOptions, AdmissionStorePort } from "../../usecases/ports.ts";
import {
  type AcquireResult,
  type AdmissionState,
  encodedUserOfStream,
  laneOfStream,
  type QueueEntry,
  queueStreamOf,
  userStreamOf,
} from "../../domain/admission/queue.ts";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  FIRST_LEARNED,
  type LearnedLimit,
  type Priority,
} from "../../domain/admission/settings.ts";
import { CLOSED, type Circuit } from "../../domain/upstreams/circuit.ts";
import {
  bucketOf,
  type LastProblem,
  NO_PROBLEMS,
  PROBLEM_SLOTS,
  type ProblemKind,
  type ProblemSlot,
  type RecentProblems,
  recentCount,
  slotAttribute,
} from "../../domain/upstreams/problems.ts";
import {
  ADMISSION_KEY,
  accountAdmissionKey,
  pastEvery,
  pastOwnStream,
  QUEUE_PARTITION,
  queueEntryKey,
  queueEntryKeys,
  queueLaneStart,
  queueSortKey,
} from "./item-keys.ts";
import { type IndexQuery, Table, type Update } from "./table-ops.ts";
import { releaseQueuedOn } from "./key-limits-table.ts";
import { userLane } from "../../domain/keys/end-users.ts";

const QUEUE: IndexQuery = { partition: QUEUE_PARTITION };

/**
 * One account's admission item, and the queue every account shares. The one-account form's store
 * (the key `admission`) also keeps the round-robin cursor; an account of a pool is `forAccount`.
 */
export class AdmissionStore implements AdmissionStorePort {
  readonly #table: Table;
  readonly #db: DynamoDBDocumentClient;
  readonly #key: string;
  /** The admission item has its holder map: nothing removes it, so once is enough per process. */
  #ensured = false;
  /** The minute each problem slot was last seen counting (recordProblem). */
  readonly #slotMinutes = new Map<string, number>();
  /** The last state this process read, and when (epoch ms). */
  #last: { state: AdmissionState; at: number } | undefined;

  readonly #tableName: string;

  constructor(db: DynamoDBDocumentClient, tableName: string, key = ADMISSION_KEY) {
    this.#db = db;
    this.#tableName = tableName;
    this.#table = new Table(db, tableName);
    this.#key = key;
  }

  /** The admission item of another account, on the same table and queue. */
  forAccount(account: string): AdmissionStore {
    return new AdmissionStore(this.#db, this.#tableName, accountAdmissionKey(account));
  }

  async state(): Promise<AdmissionState> {
    const item = (await this.#table.get(this.#key, { consistent: true })) ?? {};
    const state = {
      held: (item.held as Record<string, string> | undefined) ?? {},
      learned: (item.learned as LearnedLimit | undefined) ?? FIRST_LEARNED,
      learnedVersion: (item.learnedVersion as number | undefined) ?? 0,
      nextAdmitAt: (item.nextAdmitAt as number | undefined) ?? 0,
      cursor: (item.cursor as string | undefined) ?? "",
      circuit: (item.circuit as Circuit | undefined) ?? CLOSED,
    };
    this.#last = { state, at: Date.now() };
    return state;
  }

  /** Applies this process's own successful write to the kept copy, as a read would now see it. */
  #follow(change: (state: AdmissionState) => AdmissionState): void {
    if (this.#last !== undefined) this.#last = { ...this.#last, state: change(this.#last.state) };
  }

  /**
   * The state this process read at most `maxAgeMs` ago (with its own writes since applied), else a fresh read. For a writer whose
   * write is conditional anyway (learn: on learnedVersion), so a stale copy costs a lost race, never
   * a wrong limit; on the local stack the dispatcher's reads usually serve it.
   */
  async recentState(maxAgeMs: number): Promise<AdmissionState> {
    const last = this.#last;
    return last !== undefined && Date.now() - last.at <= maxAgeMs ? last.state : this.state();
  }

  /** The admission item with an empty holder map, so slot writes can address `held.<jobId>`. */
  async ensure(): Promise<void> {
    if (this.#ensured) return;
    await this.#table.update(this.#key, {
      update: "SET held = if_not_exists(held, :empty)",
      values: { ":empty": {} },
    });
    this.#ensured = true;
  }

  /**
   * Takes a slot for `jobId` when fewer than `limit` are held and no create is due later than
   * `now`; the next create is then due `spacingMs` later, and the lane becomes the cursor.
   */
  async acquire(jobId: string, opts: AcquireOptions): Promise<AcquireResult> {
    const probe = opts.probe;
    const acquired = await this.#conditional({
      update: `SET held.#job = :at, nextAdmitAt = :next, #cursor = :lane${probe === undefined ? "" : ", circuit = :probe"}`,
      condition: `attribute_not_exists(held.#job) AND size(held) < :limit AND (attribute_not_exists(nextAdmitAt) OR nextAdmitAt <= :now)${probe === undefined ? "" : " AND (attribute_not_exists(circuit) OR circuit.openUntil <= :now)"}`,
      names: { "#job": jobId, "#cursor": "cursor" },
      values: {
        ":at": new Date(opts.now).toISOString(),
        ":next": opts.now + opts.spacingMs,
        ":lane": opts.lane,
        ":limit": opts.limit,
        ":now": opts.now,
        ...(probe === undefined ? {} : { ":probe": probe }),
      },
    });
    if (!acquired) {
      const state = await this.state();
      if (state.held[jobId] !== undefined) return "held_already";
      return state.nextAdmitAt > opts.now ? "too_soon" : "full";
    }
    this.#follow((state) => ({
      ...state,
      held: { ...state.held, [jobId]: new Date(opts.now).toISOString() },
      nextAdmitAt: opts.now + opts.spacingMs,
      cursor: opts.lane,
      ...(probe === undefined ? {} : { circuit: probe }),
    }));
    return "acquired";
  }

  /** Frees the job's slot; true when it held one. */
  async release(jobId: string): Promise<boolean> {
    const answer = await this.#conditional({
      update: "REMOVE held.#job",
      condition: "attribute_exists(held.#job)",
      names: { "#job": jobId },
    });
    if (answer)
      this.#follow((state) => {
        const { [jobId]: _freed, ...held } = state.held;
        return { ...state, held };
      });
    return answer;
  }

  /**
   * Replaces the learned limit when it is still at `version`. Another writer may have moved it
   * first: this change is then dropped, which only makes the limit adapt a step later.
   */
  async learn(version: number, next: LearnedLimit): Promise<boolean> {
    const learned = await this.#conditional({
      update: "SET learned = :next, learnedVersion = :bumped",
      condition: "attribute_not_exists(learnedVersion) OR learnedVersion = :version",
      values: { ":next": next, ":version": version, ":bumped": version + 1 },
    });
    // The kept copy follows this process's own change, and is dropped when another writer's won.
    if (learned)
      this.#follow((state) => ({ ...state, learned: next, learnedVersion: version + 1 }));
    else this.#last = undefined;
    return learned;
  }

  /** No admission before `until` (epoch ms); a hold only ever moves the next create later. */
  async hold(until: number): Promise<void> {
    await this.#conditional({
      update: "SET nextAdmitAt = :until",
      condition: "attribute_not_exists(nextAdmitAt) OR nextAdmitAt < :until",
      values: { ":until": until },
    });
  }

  /**
   * One problem: its kind's slot for this minute gains one and it becomes the last error, in one
   * conditional write. The slot's minute this process last saw picks which write goes first (an ADD
   * to a slot already on this minute; else setting it afresh for the first problem of the minute),
   * so a second write is needed only when another process moved the slot first. A count lost to a
   * race beyond the tries only makes an operator's figure one short.
   */
  async recordProblem(problem: LastProblem, now: number): Promise<void> {
    const bucket = bucketOf(now);
    const attribute = slotAttribute(problem.kind, bucket);
    const names = { "#slot": attribute };
    const add: Update = {
      update: "ADD #slot.n :one SET lastProblem = :problem",
      condition: "#slot.b = :bucket",
      names,
      values: { ":one": 1, ":bucket": bucket, ":problem": problem },
    };
    const fresh: Update = {
      update: "SET #slot = :fresh, lastProblem = :problem",
      condition: "attribute_not_exists(#slot) OR #slot.b <> :bucket",
      names,
      values: { ":fresh": { b: bucket, n: 1 }, ":bucket": bucket, ":problem": problem },
    };
    const writes = this.#slotMinutes.get(attribute) === bucket ? [add, fresh] : [fresh, add];
    for (let tries = 0; tries < 4; tries++) {
      if (await this.#conditional(writes[tries % 2] as Update)) {
        this.#slotMinutes.set(attribute, bucket);
        return;
      }
    }
  }

  /** The counts over the window ending at `now` and the last problem, from one read. */
  async problems(now: number): Promise<RecentProblems> {
    const item = (await this.#table.get(this.#key)) ?? {};
    const slots = (kind: ProblemKind) =>
      Array.from(
        { length: PROBLEM_SLOTS },
        (_, slot) => item[slotAttribute(kind, slot)] as ProblemSlot | undefined,
      );
    return {
      ...NO_PROBLEMS,
      rateLimited: recentCount(slots("rate_limited"), now),
      errors: recentCount(slots("error"), now),
      last: (item.lastProblem as LastProblem | undefined) ?? null,
    };
  }

  /**
   * Replaces the circuit when it is still `from` (another writer's change wins; the caller reads
   * again). False when it had moved.
   */
  async setCircuit(from: Circuit, to: Circuit): Promise<boolean> {
    const set = await this.#conditional({
      update: "SET circuit = :to",
      condition:
        from.failures === 0 && from.openUntil === 0
          ? "attribute_not_exists(circuit) OR (circuit.failures = :failures AND circuit.openUntil = :openUntil)"
          : "circuit.failures = :failures AND circuit.openUntil = :openUntil",
      values: { ":to": to, ":failures": from.failures, ":openUntil": from.openUntil },
    });
    if (set) this.#follow((state) => ({ ...state, circuit: to }));
    else this.#last = undefined;
    return set;
  }

  /** The round-robin cursor of a pool's dispatch (one-account: acquire moves it on this item). */
  async setCursor(lane: string): Promise<void> {
    await this.#table.update(this.#key, {
      update: "SET #cursor = :lane",
      names: { "#cursor": "cursor" },
      values: { ":lane": lane },
    });
  }

  #conditional(update: Update): Promise<boolean> {
    return this.#table.conditionalUpdate(this.#key, update);
  }

  async enqueue(entry: QueueEntry): Promise<void> {
    await this.#table.put({ ...entry, ...queueEntryKeys(entry) });
  }

  /** Removes the job's entry; a counted one (max_queued) is counted back on its lane (and its user's). */
  async dequeue(jobId: string): Promise<void> {
    const old = await this.#table.deleteReturning(queueEntryKey(jobId));
    if (old?.counted === true) await releaseQueuedOn(this.#table, old.lane as string, 1);
    if (old?.userCounted === true && typeof old.user === "string")
      await releaseQueuedOn(this.#table, userLane(old.lane as string, old.user), 1);
  }

  async entry(jobId: string): Promise<QueueEntry | undefined> {
    const item = await this.#table.get(queueEntryKey(jobId));
    return item === undefined ? undefined : toEntry(item);
  }

  /**
   * The head of the first lane after the cursor's, wrapping to the first lane; undefined = empty
   * queue. Within that lane, the head of the stream after the one served last (domain/admission/
   * queue.ts: the key's jobs for no end user, then each end user's), so a key's users are taken in
   * turn as keys are; the cursor names one stream, so where another key was served last the lane's
   * streams are taken in turn by the users' ids. The queue's head comes first: an empty queue (most
   * dispatch runs' last look) is one Query. Entries in `pending` (being admitted by this run, not
   * yet out of the queue) are passed over, and so are whole lanes in `skipLanes` (their keys'
   * max_in_flight is reached) and end users' streams whose user lane is there: one Query each.
   */
  async next(
    cursor: string,
    pending: ReadonlySet<string> = new Set(),
    skipLanes: ReadonlySet<string> = new Set(),
  ): Promise<QueueEntry | undefined> {
    const head = await this.#open(undefined, pending, skipLanes);
    if (head === undefined || cursor === "") return head;
    const served = laneOfStream(cursor);
    const lane =
      queueSortKey(head) > pastEvery(served)
        ? head
        : ((await this.#open(pastEvery(served), pending, skipLanes)) ?? head);
    const after = nextStreamFrom(lane.lane, cursor);
    if (after === undefined) return lane;
    const within = await this.#open(after, pending, skipLanes);
    return within?.lane === lane.lane ? within : lane;
  }

  /** The first entry after `after` not in `pending` nor in a lane or user lane of `skipLanes`. */
  async #open(
    after: string | undefined,
    pending: ReadonlySet<string>,
    skipLanes: ReadonlySet<string>,
  ): Promise<QueueEntry | undefined> {
    let from = after;
    for (;;) {
      const entry = await this.#first(from, pending);
      if (entry === undefined) return entry;
      if (skipLanes.has(entry.lane)) from = pastEvery(entry.lane);
      else if (entry.user !== undefined && skipLanes.has(userLane(entry.lane, entry.user)))
        from = pastEvery(queueStreamOf(entry));
      else return entry;
    }
  }

  /** The first entry after `after` not in `pending`: a page one longer than `pending` holds one. */
  async #first(
    after: string | undefined,
    pending: ReadonlySet<string>,
  ): Promise<QueueEntry | undefined> {
    const { items } = await this.#table.queryPage({
      ...QUEUE,
      ...(after ? { range: { op: ">", value: after } } : {}),
      pageSize: pending.size + 1,
    });
    const item = items.find((i) => !pending.has(i.jobId as string));
    return item === undefined ? undefined : toEntry(item);
  }

  /** How many entries of the same lane come before this one (approximate under concurrent change). */
  async ahead(entry: QueueEntry): Promise<number> {
    const range = { between: [queueLaneStart(queueStreamOf(entry)), queueSortKey(entry)] } as const;
    const count = await this.#table.count({ ...QUEUE, range });
    return Math.max(0, count - 1);
  }

  /** How many jobs wait in the queue. */
  async queued(): Promise<number> {
    return this.#table.count(QUEUE);
  }

  /** Every waiting entry, oldest lane order; for the sweep and the metrics. */
  async *entries(): AsyncGenerator<QueueEntry> {
    for await (const item of this.#table.queryAll(QUEUE)) yield toEntry(item);
  }
}

/**
 * Where `lane`'s next stream starts after the cursor's: past the cursor's stream when it is in this
 * lane, past the same user's id when it is another lane's user stream; undefined = the lane's first.
 */
function nextStreamFrom(lane: string, cursor: string): string | undefined {
  const user = encodedUserOfStream(cursor);
  if (laneOfStream(cursor) === lane)
    return user === undefined ? pastOwnStream(lane) : pastEvery(cursor);
  return user === undefined ? undefined : pastEvery(userStreamOf(lane, user));
}

function toEntry(item: Record<string, unknown>): QueueEntry {
  return {
    jobId: item.jobId as string,
    lane: item.lane as string,
    priority: item.priority as Priority,
    enqueuedAt: item.enqueuedAt as string,
    expiresAt: item.expiresAt as string,
    ...(item.counted === true ? { counted: true as const } : {}),
    ...(typeof item.user === "string" ? { user: item.user } : {}),
    ...(item.userCounted === true ? { userCounted: true as const } : {}),
  };
}
