/** `reelay top` over a pool: one line per account from its `account`-labelled series, totals from the rest. */
import { describe, expect, it } from "vitest";
import { renderFrame, topFrame } from "../src/top/frame.ts";
import { parseMetrics } from "../src/top/scrape.ts";

function scrape(at: number, lines: string[]) {
  return parseMetrics(`${lines.join("\n")}\n`, at);
}

const gauges = [
  "reelay_slots_in_use 7",
  'reelay_slots_in_use{account="alpha"} 4',
  'reelay_slots_in_use{account="beta"} 3',
  "reelay_slots_limit 12",
  'reelay_slots_limit{account="alpha"} 4',
  'reelay_slots_limit{account="beta"} 8',
  'reelay_circuit_open{account="alpha"} 0',
  'reelay_circuit_open{account="beta"} 1',
];
const first = scrape(0, [
  ...gauges,
  'reelay_upstream_429_total{operation="create"} 2',
  'reelay_upstream_429_total{operation="create",account="alpha"} 2',
  'reelay_upstream_errors_total{operation="create"} 1',
  'reelay_upstream_errors_total{operation="create",account="beta"} 1',
]);
const last = scrape(60_000, [
  ...gauges,
  'reelay_upstream_requests_total{operation="create"} 30',
  'reelay_upstream_requests_total{operation="create",account="alpha"} 20',
  'reelay_upstream_requests_total{operation="create",account="beta"} 10',
  'reelay_upstream_429_total{operation="create"} 5',
  'reelay_upstream_429_total{operation="create",account="alpha"} 5',
  'reelay_upstream_errors_total{operation="create"} 4',
  'reelay_upstream_errors_total{operation="create",account="beta"} 4',
]);

describe("topFrame over a pool", () => {
  it("totals count the series without `account` only, not each account's again", () => {
    const frame = topFrame([first, last]);
    expect(frame).toMatchObject({ inFlight: 7, slotsLimit: 12 });
    expect(frame.window).toMatchObject({ requestsPerMin: 30, rateLimitedPerMin: 3 });
  });

  it("one scrape: each account's circuit, slots, and 429s and errors since start", () => {
    expect(topFrame([last]).accounts).toEqual([
      {
        name: "alpha",
        circuit: "closed",
        inFlight: 4,
        limit: 4,
        rateLimited: 5,
        errors: 0,
        perMin: false,
      },
      {
        name: "beta",
        circuit: "open",
        inFlight: 3,
        limit: 8,
        rateLimited: 0,
        errors: 4,
        perMin: false,
      },
    ]);
  });

  it("two scrapes: each account's 429s and errors a minute, one line each on the screen", () => {
    const frame = topFrame([first, last]);
    expect(frame.accounts?.map((a) => [a.name, a.rateLimited, a.errors])).toEqual([
      ["alpha", 3, 0],
      ["beta", 0, 3],
    ]);
    const text = renderFrame(frame, "head");
    expect(text).toContain(
      "accounts    alpha  closed  4/4 in flight, 429s 3.0/min, errors 0.0/min",
    );
    expect(text).toContain(
      "            beta   open    3/8 in flight, 429s 0.0/min, errors 3.0/min",
    );
  });

  it("one account (`default` only) adds no account lines: the screen is as before", () => {
    const one = scrape(0, [
      "reelay_slots_in_use 2",
      'reelay_slots_in_use{account="default"} 2',
      "reelay_slots_limit 4",
      'reelay_slots_limit{account="default"} 4',
    ]);
    const frame = topFrame([one]);
    expect(frame.accounts).toBeUndefined();
    expect(frame).toMatchObject({ inFlight: 2, slotsLimit: 4 });
    expect(renderFrame(frame, "head")).not.toContain("accounts");
  });
});
