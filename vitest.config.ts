import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ["default", "./test/support/summary-reporter.ts"],
    env: {
      // SST reports usage unless told not to; tests never phone home.
      SST_TELEMETRY_DISABLED: "1",
    },
  },
});
