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
      // The AWS SDK warns once per process that its future releases need Node 22; the SDK versions
      // are pinned, so the notice says nothing about the project and would repeat once per worker.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
  },
});
