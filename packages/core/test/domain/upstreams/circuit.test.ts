import { describe, expect, it } from "vitest";
import {
  afterFailure,
  CIRCUIT_THRESHOLD,
  CLOSED,
  circuitState,
  FIRST_COOLDOWN_MS,
  MAX_COOLDOWN_MS,
  whileProbing,
} from "../../../src/domain/upstreams/circuit.ts";

function fail(times: number, now: number, from = CLOSED) {
  let circuit = from;
  for (let i = 0; i < times; i++) circuit = afterFailure(circuit, now);
  return circuit;
}

describe("an account's circuit", () => {
  it("stays closed below the threshold and opens for the first cool-down at it", () => {
    expect(circuitState(fail(CIRCUIT_THRESHOLD - 1, 1000), 1000)).toBe("closed");
    const open = fail(CIRCUIT_THRESHOLD, 1000);
    expect(circuitState(open, 1000)).toBe("open");
    expect(open.openUntil).toBe(1000 + FIRST_COOLDOWN_MS);
    expect(circuitState(open, 1000 + FIRST_COOLDOWN_MS)).toBe("half_open");
  });

  it("failures while open do not stretch the cool-down; a failed probe doubles it, up to the most", () => {
    const open = fail(CIRCUIT_THRESHOLD + 3, 1000);
    expect(open.openUntil).toBe(1000 + FIRST_COOLDOWN_MS);
    const at = 1000 + FIRST_COOLDOWN_MS;
    const probing = whileProbing(open, at);
    expect(circuitState(probing, at)).toBe("open");
    const reopened = afterFailure(probing, probing.openUntil);
    expect(reopened.openUntil - probing.openUntil).toBe(2 * FIRST_COOLDOWN_MS);
    let circuit = reopened;
    for (let i = 0; i < 10; i++) circuit = afterFailure(circuit, circuit.openUntil);
    expect(circuit.cooldownMs).toBe(MAX_COOLDOWN_MS);
  });
});
