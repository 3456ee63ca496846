import { describe, expect, it } from "vitest";
import { clientStackForSuite } from "./support/client-stack.ts";

describe("reelay usage --by account against the local stack", () => {
  const t = clientStackForSuite();

  it("one account: the job counts under `default`, in JSON and in the table headed ACCOUNT", async () => {
    const generated = await t.cli([
      "generate",
      "a quiet harbour",
      "--model",
      "os-2",
      "--duration",
      "4",
      "--json",
    ]);
    expect(generated.code, generated.stderr).toBe(0);
    const usage = await t.cli(["usage", "--by", "account", "--json"]);
    expect(usage.code, usage.stderr).toBe(0);
    const report = JSON.parse(usage.stdout) as {
      group_by: string;
      groups: { group: string | null; jobs: number; succeeded: number }[];
    };
    expect(report.group_by).toBe("account");
    expect(report.groups).toEqual([
      expect.objectContaining({ group: "default", jobs: 1, succeeded: 1 }),
    ]);
    const text = await t.cli(["usage", "--by", "account"]);
    expect(text.stdout).toMatch(/^ACCOUNT\s+JOBS/m);
    expect(text.stdout).toMatch(/^default\s+1\s+1\s+0/m);
  }, 60_000);
});
