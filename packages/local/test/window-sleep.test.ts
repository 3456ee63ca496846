import { describe, expect, it } from "vitest";
import { windowSleeper } from "../src/window-sleep.ts";

describe("windowSleeper", () => {
  it("lets 50 jobs pause at once without a MaxListenersExceededWarning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const { sleep } = windowSleeper();
      await Promise.all(Array.from({ length: 50 }, () => sleep(5)));
      // Node emits the warning on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("end() cuts every pause short, and a pause asked for afterwards ends at once", async () => {
    const { sleep, end } = windowSleeper();
    const started = Date.now();
    const pauses = Array.from({ length: 3 }, () =>
      sleep(60_000).then(
        () => "slept",
        (error: Error) => error.name,
      ),
    );
    end();
    expect(await Promise.all(pauses)).toEqual(["AbortError", "AbortError", "AbortError"]);
    await expect(sleep(60_000)).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
