/**
 * The job mix: four model tiers whose upstream generation times run from 30 s to 6 min, each
 * lognormal around its mean (a fixed seed, so every run draws the same jobs). Each tier is a real
 * catalog model and duration, so reelay files its samples where it would in production.
 */
import { seededRandom } from "../../../soak/faults.ts";

export interface Tier {
  model: string;
  durationSec: number;
  /** Mean upstream generation time. */
  meanMs: number;
}

export const TIERS: readonly Tier[] = [
  { model: "os-2", durationSec: 4, meanMs: 30_000 },
  { model: "gamma-3.1", durationSec: 8, meanMs: 90_000 },
  { model: "zeta-1.1", durationSec: 10, meanMs: 180_000 },
  { model: "theta-3.0-pro", durationSec: 10, meanMs: 360_000 },
];

/** Spread of one tier's generation times (standard deviation / mean). */
export const GENERATION_CV = 0.1;

export interface MixJob extends Tier {
  generationMs: number;
  /** When the job arrives, from the start of its pass. */
  arrivalMs: number;
}

function lognormal(random: () => number, mean: number, cv: number): number {
  const sigma = Math.sqrt(Math.log(1 + cv * cv));
  const mu = Math.log(mean) - (sigma * sigma) / 2;
  const u = 1 - random();
  const v = random();
  return Math.exp(mu + sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
}

/** `perTier` jobs of every tier, arriving in random order spread evenly over `arrivalSpreadMs`. */
export function drawMix(opts: {
  seed: number;
  perTier: number;
  arrivalSpreadMs: number;
  cv?: number;
}): MixJob[] {
  const random = seededRandom(opts.seed);
  const jobs = TIERS.flatMap((tier) =>
    Array.from({ length: opts.perTier }, () => ({
      ...tier,
      generationMs: Math.round(lognormal(random, tier.meanMs, opts.cv ?? GENERATION_CV)),
      arrivalMs: 0,
    })),
  );
  for (const job of jobs) job.arrivalMs = Math.round(random() * opts.arrivalSpreadMs);
  return jobs.sort((a, b) => a.arrivalMs - b.arrivalMs);
}
