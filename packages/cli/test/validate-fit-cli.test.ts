/** `reelay validate --fit`: a request refused only for its duration is valid as fitted, its moves printed. */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "./support/run.ts";

async function requestFile(body: unknown): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), "reelay-validate-fit-")), "os2.json");
  await writeFile(file, JSON.stringify(body));
  return file;
}

const FIVE_ON_OS2 = { model: "os-2", prompt: "a lighthouse", duration_sec: 5 };

describe("reelay validate --fit", () => {
  it("prints os-2's 5 s fitted to 4 s and exits 0", async () => {
    const file = await requestFile(FIVE_ON_OS2);
    const result = await runInProcess(["validate", "--fit", file], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`valid  ${file}`);
    expect(result.stdout).toContain("  fitted  duration_sec: 5 -> 4\n");
  });

  it("--json ends the verdict with the adjustments and shows the fitted request", async () => {
    const file = await requestFile(FIVE_ON_OS2);
    const result = await runInProcess(["validate", "--fit", "--json", file], {});
    const verdict = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(verdict).at(-1)).toBe("adjustments");
    expect(verdict.adjustments).toEqual([{ path: "duration_sec", from: 5, to: 4 }]);
    expect(verdict.normalized).toMatchObject({ duration_sec: 4 });
  });

  it("without --fit the same file is invalid (exit 1) and its verdict has no adjustments", async () => {
    const file = await requestFile(FIVE_ON_OS2);
    const result = await runInProcess(["validate", "--json", file], {});
    expect(result.code).toBe(1);
    const verdict = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(verdict).toMatchObject({ valid: false, errors: [{ code: "duration_not_allowed" }] });
    expect(verdict).not.toHaveProperty("adjustments");
  });
});
