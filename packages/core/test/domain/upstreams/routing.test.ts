import { describe, expect, it } from "vitest";
import { type Candidate, chooseAccount } from "../../../src/domain/upstreams/routing.ts";

const alpha: Candidate = {
  name: "alpha",
  order: 0,
  held: 3,
  limit: 4,
  weight: 1,
  priceMicros: 500,
};
const beta: Candidate = { name: "beta", order: 1, held: 2, limit: 8, weight: 1, priceMicros: 300 };
const gamma: Candidate = { name: "gamma", order: 2, held: 6, limit: 12, weight: 2 };

describe("routing a queued job among the accounts that could take it", () => {
  it("balanced: fewest in flight for its weight, ties to the most free slots", () => {
    expect(chooseAccount([alpha, beta, gamma], "balanced")?.name).toBe("beta");
    expect(chooseAccount([alpha, { ...beta, held: 4 }, gamma], "balanced")?.name).toBe("gamma");
    expect(
      chooseAccount(
        [
          { ...alpha, held: 0, limit: 2 },
          { ...beta, held: 0 },
        ],
        "balanced",
      )?.name,
    ).toBe("beta");
  });

  it("ordered: the first in the list with a free slot", () => {
    expect(chooseAccount([alpha, beta, gamma], "ordered")?.name).toBe("alpha");
    expect(chooseAccount([{ ...alpha, held: 4 }, beta, gamma], "ordered")?.name).toBe("beta");
  });

  it("cheapest: the lowest price, unpriced last", () => {
    expect(chooseAccount([alpha, beta, gamma], "cheapest")?.name).toBe("beta");
    expect(chooseAccount([alpha, { ...beta, held: 8 }, gamma], "cheapest")?.name).toBe("alpha");
    expect(
      chooseAccount([{ ...alpha, held: 4 }, { ...beta, held: 8 }, gamma], "cheapest")?.name,
    ).toBe("gamma");
  });

  it("none when every account is full", () => {
    expect(chooseAccount([{ ...alpha, held: 4 }], "balanced")).toBeUndefined();
  });
});
