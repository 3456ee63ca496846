import { describe, expect, it } from "vitest";
import { parseUpstreams, serves } from "../../../src/domain/upstreams/accounts.ts";
import { loadConfig } from "../../../src/wiring/config.ts";

const A = { name: "alpha", url: "https://a.example.com/v1", api_key: "ka" };
const B = { name: "beta", url: "https://b.example.com/v1/", api_key: "kb", models: ["os-2"] };

function refusal(
  text: string,
  env: Record<string, string> = {},
): { message: string; path?: string } {
  try {
    loadConfig({ REELAY_UPSTREAMS: text, ...env });
  } catch (error) {
    return error as { message: string; path?: string };
  }
  throw new Error("the configuration was accepted");
}

describe("REELAY_UPSTREAMS", () => {
  it("reads a list of accounts: defaults (weight 1, every model), base URLs normalised, prices per account", () => {
    const prices = { currency: "USD", models: { "os-2": { per_second: { default: 0.1 } } } };
    const config = loadConfig({
      REELAY_UPSTREAMS: JSON.stringify([{ ...A, concurrency: 4, rate: 2, weight: 3, prices }, B]),
    });
    const [alpha, beta] = config.upstreams ?? [];
    expect(alpha).toMatchObject({
      name: "alpha",
      apiKey: "ka",
      concurrency: 4,
      ratePerS: 2,
      weight: 3,
    });
    expect(alpha?.prices?.currency).toBe("USD");
    expect(beta).toMatchObject({ url: "https://b.example.com/v1", weight: 1, models: ["os-2"] });
    expect(serves(alpha as never, "anything")).toBe(true);
    expect(serves(beta as never, "gamma-3.1")).toBe(false);
    expect(config.routing).toBe("balanced");
    expect(config.fallbackAttempts).toBe(0);
  });

  it("each problem is one line naming the entry and the field", () => {
    expect(refusal(JSON.stringify([A, { ...B, api_key: "" }]))).toMatchObject({
      path: "REELAY_UPSTREAMS[1].api_key",
    });
    expect(refusal(JSON.stringify([A, { ...B, api_key: "" }])).message).toContain('account "beta"');
    expect(refusal(JSON.stringify([{ ...A, concurrency: 0 }])).path).toBe(
      "REELAY_UPSTREAMS[0].concurrency",
    );
    expect(refusal(JSON.stringify([{ ...A, url: "https://a.example.com" }])).path).toBe(
      "REELAY_UPSTREAMS[0].url",
    );
    expect(refusal(JSON.stringify([A, { ...B, name: "alpha" }])).path).toBe(
      "REELAY_UPSTREAMS[1].name",
    );
    expect(refusal(JSON.stringify([{ ...A, colour: "red" }])).message).toMatch(/colour/);
    expect(refusal(JSON.stringify([{ ...A, prices: { currency: "usd", models: {} } }])).path).toBe(
      "REELAY_UPSTREAMS[0].prices.currency",
    );
    expect(refusal("[]").path).toBe("REELAY_UPSTREAMS");
    expect(refusal("[not json").message).toMatch(/not valid JSON/);
    for (const problem of [refusal(JSON.stringify([{ ...A, api_key: "s3cret-key", weight: -1 }]))])
      expect(problem.message).not.toContain("s3cret-key");
  });

  it("is refused beside REELAY_UPSTREAM_URL, and REELAY_ROUTING / REELAY_FALLBACK_ATTEMPTS are checked", () => {
    expect(
      refusal(JSON.stringify([A]), { REELAY_UPSTREAM_URL: "https://x.example.com/v1" }).message,
    ).toMatch(/keep one/);
    expect(() => loadConfig({ REELAY_ROUTING: "random" })).toThrow(/REELAY_ROUTING/);
    expect(() => loadConfig({ REELAY_FALLBACK_ATTEMPTS: "-1" })).toThrow(
      /REELAY_FALLBACK_ATTEMPTS/,
    );
    expect(loadConfig({ REELAY_ROUTING: "cheapest", REELAY_FALLBACK_ATTEMPTS: "2" })).toMatchObject(
      {
        routing: "cheapest",
        fallbackAttempts: 2,
        upstreams: undefined,
      },
    );
  });

  it("parseUpstreams names where the text came from", () => {
    expect(() => parseUpstreams("{}", "REELAY_UPSTREAMS file pool.json")).toThrow(
      /REELAY_UPSTREAMS file pool.json/,
    );
  });
});
