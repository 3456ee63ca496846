import { describe, expect, it } from "vitest";
import { runInProcess } from "./support/run.ts";

describe("reelay --help", () => {
  it("lists generate's --metadata, --user and --fit, jobs' --metadata and keys create's --on-sunset, and exits 0", async () => {
    const result = await runInProcess(["--help"], {});
    expect(result.code).toBe(0);
    const generate = result.stdout.slice(
      result.stdout.indexOf("reelay generate"),
      result.stdout.indexOf("reelay status"),
    );
    expect(generate).toContain("[--metadata key=value]...");
    expect(generate).toContain("[--user ID]");
    expect(generate).toContain("[--fit]");
    expect(result.stdout).toContain("reelay jobs [--status S] [--metadata key=value]...");
    expect(result.stdout).toContain("[--on-sunset refuse|successor]");
  });
});
