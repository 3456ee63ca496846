import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
    // Two files at a time on two cores (vitest's default here is one): a file mostly waits on its
    // local stack, so one file alone leaves a core idle. More buys no speed, only timeouts: the
    // suite needs about 1,000 CPU-seconds (forks, imports, stacks, CLI processes), so two files
    // already keep both cores busy, and four at once starved the CPU-bound files (fuzz, property
    // tests, CLI processes) past their timeouts. Each file runs in its own process and binds ports
    // the OS picks; the infra tests' synth takes turns through its own lock (test/infra/synth.ts).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ["default", "./test/support/summary-reporter.ts"],
    env: {
      // SST reports usage unless told not to; tests never phone home.
      SST_TELEMETRY_DISABLED: "1",
    },
  },
});
