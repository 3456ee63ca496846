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

  it("failures while open do not stretch the cool-down; each failed probe keeps it open twice as long as the last, up to the most", async () => {
    const open = fail(CIRCUIT_THRESHOLD + 3, 1000);
    expect(open.openUntil).toBe(1000 + FIRST_COOLDOWN_MS);
    let at = open.openUntil;
    let circuit = open;
    const windows: number[] = [];
    for (let probe = 0; probe < 6; probe++) {
      expect(circuitState(circuit, at)).toBe("half_open");
      circuit = afterFailure(whileProbing(circuit, at), at + 1);
      expect(circuitState(circuit, at + 1)).toBe("open");
      windows.push(circuit.openUntil - at);
      at = circuit.openUntil;
    }
    expect(windows).toEqual([10_000, 20_000, 40_000, 60_000, 60_000, 60_000]);
    expect(FIRST_COOLDOWN_MS * 2).toBe(windows[0]);
    expect(MAX_COOLDOWN_MS).toBe(60_000);
  });
});
