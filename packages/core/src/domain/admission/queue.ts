import type { LearnedLimit, Priority } from "./settings.ts";
import type { Circuit } from "../upstreams/circuit.ts";
export interface AdmissionState {
  /** Job id -> ISO time the slot was taken. */
  held: Record<string, string>;
  learned: LearnedLimit;
  /** Bumped by every change of `learned`, so concurrent learners never overwrite each other. */
  learnedVersion: number;
  /** Epoch ms before which no job is admitted (rate spacing, an upstream's Retry-After). */
  nextAdmitAt: number;
  /** The lane served last. */
  cursor: string;
  /** The account's circuit (domain/upstreams/circuit.ts). */
  circuit: Circuit;
}

export interface QueueEntry {
  jobId: string;
  lane: string;
  priority: Priority;
  enqueuedAt: string;
  /** ISO time after which the job ends failed with `queue_timeout`. */
  expiresAt: string;
  /** Counted in its lane's waiting jobs (max_queued): leaving the queue counts it back. */
  counted?: true;
  /**
   * The end user the job is for: the queue takes a key's users in turn (and its jobs for no user as
   * one more), and the user's own limits hold on its lane (domain/keys/end-users.ts).
   */
  user?: string;
  /** Counted in its end user's waiting jobs (user_limits.max_queued) likewise. */
  userCounted?: true;
}

export type AcquireResult = "acquired" | "held_already" | "full" | "too_soon";

/** Between a key's lane and an end user's (encoded) id in a stream's name. */
const USER_STREAM = "#u#";

/**
 * The entry's stream within its lane, what the queue takes in turn inside a key: its key's jobs
 * for no end user (the lane itself, as every entry was before end users), or one end user's
 * (`<lane>#u#<user, URI-encoded>`, so no id can end the name early). The round-robin cursor names
 * the stream served last.
 */
export function queueStreamOf(entry: Pick<QueueEntry, "lane" | "user">): string {
  return entry.user === undefined
    ? entry.lane
    : `${entry.lane}${USER_STREAM}${encodeURIComponent(entry.user)}`;
}

/** The lane of a stream (or of a cursor, which names one). */
export function laneOfStream(stream: string): string {
  const at = stream.indexOf(USER_STREAM);
  return at < 0 ? stream : stream.slice(0, at);
}

/** The end user part of a stream, still encoded; undefined for a key's own stream. */
export function encodedUserOfStream(stream: string): string | undefined {
  const at = stream.indexOf(USER_STREAM);
  return at < 0 ? undefined : stream.slice(at + USER_STREAM.length);
}

/** The name of `lane`'s stream for an end user whose id is already encoded. */
export function userStreamOf(lane: string, encodedUser: string): string {
  return `${lane}${USER_STREAM}${encodedUser}`;
}
