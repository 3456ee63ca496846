import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
    // Four files at a time on two cores: most files spend their time waiting on a local stack (a
    // compressed simulator, dynalite, s3rver), not computing. Each file runs in its own process
    // and its stacks bind ports the OS picks, so files running together share nothing; the synth
    // of the infra tests takes turns through its own lock (test/infra/synth.ts).
    maxWorkers: 4,
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
