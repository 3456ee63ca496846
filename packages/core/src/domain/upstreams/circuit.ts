/**
 * An account's circuit: consecutive creates that failed on the wire (refused, reset, timed out, a
 * 5xx) open it for a cool-down, with no new creates sent there meanwhile (polls of its tasks go on).
 * When the cool-down is over the next create there is the probe: it closes the circuit when it goes
 * through, and opens it again for twice as long (up to MAX_COOLDOWN_MS) when it fails.
 *
 *   closed ──THRESHOLD failures──> open ──cool-down over──> half-open ──probe ok──> closed
 *                                   ^____________probe failed (cool-down x2)_________|
 */
export const CIRCUIT_THRESHOLD = 3;
export const FIRST_COOLDOWN_MS = 5_000;
export const MAX_COOLDOWN_MS = 60_000;

/** As kept in the account's admission item. */
export interface Circuit {
  /** Consecutive failed creates. */
  failures: number;
  /** Epoch ms until which no new create goes there (0 = never opened). */
  openUntil: number;
  /** The cool-down the next opening lasts. */
  cooldownMs: number;
}

export const CLOSED: Circuit = { failures: 0, openUntil: 0, cooldownMs: FIRST_COOLDOWN_MS };

export type CircuitState = "closed" | "open" | "half_open";

export function circuitState(circuit: Circuit, now: number): CircuitState {
  if (circuit.failures < CIRCUIT_THRESHOLD) return "closed";
  return now < circuit.openUntil ? "open" : "half_open";
}

/** One more failed create: past the threshold the circuit opens (again) for its cool-down. */
export function afterFailure(circuit: Circuit, now: number): Circuit {
  const failures = circuit.failures + 1;
  if (failures < CIRCUIT_THRESHOLD) return { ...circuit, failures };
  // Already open (several creates in flight failed together): the cool-down runs as it was set.
  if (now < circuit.openUntil) return { ...circuit, failures };
  return {
    failures,
    openUntil: now + circuit.cooldownMs,
    cooldownMs: Math.min(circuit.cooldownMs * 2, MAX_COOLDOWN_MS),
  };
}

/**
 * Half-open: the probe is under way, so the circuit counts as open for the next cool-down (twice
 * the last); a probe that fails leaves it so, and the one after would wait twice as long again.
 */
export function whileProbing(circuit: Circuit, now: number): Circuit {
  return {
    ...circuit,
    openUntil: now + circuit.cooldownMs,
    cooldownMs: Math.min(circuit.cooldownMs * 2, MAX_COOLDOWN_MS),
  };
}
