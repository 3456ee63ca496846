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
}

export type AcquireResult = "acquired" | "held_already" | "full" | "too_soon";
