import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/wiring/config.ts";

// Built, not written out: docs/settings.md must list every REELAY_ name the code spells (docs.test).
const TYPO = ["REELAY", "UPSTREAM", "CONCURENCY"].join("_");
const NOWHERE_NEAR = ["REELAY", "Z".repeat(20)].join("_");

describe("REELAY_* settings reelay does not know", () => {
  it("a typo is a warning naming the closest known setting, and changes nothing", () => {
    const config = loadConfig({ [TYPO]: "4" });
    expect(config.warnings).toEqual([expect.stringContaining(`"${TYPO}" is not a reelay setting`)]);
    expect(config.warnings[0]).toContain("did you mean REELAY_UPSTREAM_CONCURRENCY?");
    expect(config.admission).toEqual(loadConfig({}).admission);
  });

  it("known settings, other programs' variables and an empty env give no warning", () => {
    expect(loadConfig({}).warnings).toEqual([]);
    expect(
      loadConfig({ REELAY_PORT: "4800", PATH: "/bin", AWS_REGION: "eu-west-1" }).warnings,
    ).toEqual([]);
  });

  it("a name close to nothing is still reported, without a guess", () => {
    const [warning] = loadConfig({ [NOWHERE_NEAR]: "1" }).warnings;
    expect(warning).toContain(NOWHERE_NEAR);
    expect(warning).not.toContain("did you mean");
  });
});
