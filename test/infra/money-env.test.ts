/**
 * The price table and the deployment's budget reach the functions as the text that was checked at
 * synth, so a job's price version is the same on AWS as where the table was checked.
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "@reelay/core/wiring";
import { moneyEnvironment } from "../../stacks/money.ts";

const TABLE = '{"currency":"USD","models":{"os-2":{"per_second":{"default":0.025}}}}';

describe("the functions' money settings", () => {
  it("carry REELAY_PRICES as given, so the functions compute the same version, and REELAY_BUDGET", () => {
    const config = loadConfig({
      REELAY_PRICES: TABLE,
      REELAY_BUDGET: '{"amount":500,"period":"month"}',
    });
    const env = moneyEnvironment(config);
    expect(env.REELAY_PRICES).toBe(TABLE);
    const inFunction = loadConfig(env);
    expect(inFunction.prices?.version).toBe(config.prices?.version);
    expect(inFunction.budget).toEqual({ amount: 500, unit: "currency", period: "month" });
  });

  it("carry REELAY_KEY_LIMITS as checked, the deployment's member included, so the API and Dispatch enforce the same limits", () => {
    const config = loadConfig({
      REELAY_KEY_LIMITS: '{"rate": 5, "max_queued": 100, "deployment": {"max_in_flight": 8}}',
    });
    const inFunction = loadConfig(moneyEnvironment(config));
    expect(inFunction.keyLimits).toEqual(config.keyLimits);
    expect(inFunction.keyLimits.deployment).toEqual({ max_in_flight: 8 });
  });

  it("are empty without a table or a budget, and a table too big for Lambda's environment is refused at synth", () => {
    expect(moneyEnvironment(loadConfig({}))).toEqual({});
    const models = Object.fromEntries(
      Array.from({ length: 80 }, (_, i) => [`model-${i}`, { per_second: { default: 0.01 } }]),
    );
    const big = loadConfig({ REELAY_PRICES: JSON.stringify({ currency: "USD", models }) });
    expect(() => moneyEnvironment(big)).toThrow(/environment holds at most 3000/);
  });
});
