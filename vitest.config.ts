import { defineConfig } from "vitest/config";
import LongestFirst from "./test/support/sequencer.ts";

/**
 * Files that never start a stack or a process of their own and set no process-wide state before
 * their imports: they share their workers' loaded modules (no isolation), which halves the CPU
 * these files cost (most of it was each file's fresh process compiling and loading the same
 * modules). Everything else runs each file in a fresh process, as before.
 */
const SHARED_MODULES = [
  "packages/core/test/**/*.test.ts",
  "packages/api/test/**/*.test.ts",
  "packages/simulator/test/**/*.test.ts",
  "packages/flow/test/**/*.test.ts",
  "packages/client/test/schema.test.ts",
  "packages/client/test/lines.test.ts",
  "packages/client/test/sse.test.ts",
  "test/flow/**/*.test.ts",
  "test/infra/**/*.test.ts",
  "test/fuzz/**/*.test.ts",
  "test/docs/**/*.test.ts",
  "test/imports/**/*.test.ts",
  "test/upstream-vs-simulator.test.ts",
  "packages/client/test/uploads.test.ts",
  "packages/client/test/browser-bundle.test.ts",
  // The Lambda handlers' files that set no env: they import no handler, or one that reads none.
  "test/functions/metrics-accounts.test.ts",
  "test/functions/secrets.test.ts",
  // The rehearsal's parts and the short rehearsal (its synth sets the deploy env only for its turn).
  "test/rehearsal/!(lambda).test.ts",
];

/**
 * Files that start their own local stacks (in this process or as children) but set no process-wide
 * state (no process.env writes, no module mocks): they too share their workers' loaded modules, so
 * @reelay/local, the SDK and core are loaded once per worker instead of once per file. Both lists
 * are one project ("shared"): vitest hands a worker on only to a file of the same project.
 */
const SHARED_STACKS = [
  "test/e2e/**/*.test.ts",
  "test/soak/**/*.test.ts",
  "test/upgrade/**/*.test.ts",
  "test/browser/**/*.test.ts",
  "packages/local/test/**/*.test.ts",
  "packages/cli/test/**/*.test.ts",
  "packages/mcp/test/**/*.test.ts",
  "packages/client/test/packed.test.ts",
];

const shared = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  env: {
    // SST reports usage unless told not to; tests never phone home.
    SST_TELEMETRY_DISABLED: "1",
  },
};

/**
 * @reelay/client is published built (dist/); in the repository its exports map's @reelay/source
 * condition points at the source, so tests read that and need no build. The rest are Vitest's
 * defaults; it passes the list to its workers' Node as --conditions too.
 */
const readSource = {
  ssr: { resolve: { conditions: ["@reelay/source", "node", "development|production"] } },
};

export default defineConfig({
  test: {
    // Six files at a time on two cores: many files wait on their stacks, children or real time
    // for part of their run. Four kept the CPU about 10% idle (1.78 cores busy, 415 s); six, 1.93
    // cores and 383 s for the same 740 CPU-s, every file passing. Each file binds ports the OS
    // picks; the infra tests' synth takes turns through its own lock (test/infra/synth.ts).
    maxWorkers: 6,
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // The isolated files first, then the shared ones, longest first in each: the run ends with
    // short files on every worker, and a shared worker is kept to the end (sequencer.ts).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        ...readSource,
        test: {
          ...shared,
          name: "shared",
          include: [...SHARED_MODULES, ...SHARED_STACKS],
          isolate: false,
        },
      },
      {
        ...readSource,
        test: {
          ...shared,
          name: "isolated",
          include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [...SHARED_MODULES, ...SHARED_STACKS, "**/node_modules/**"],
        },
      },
    ],
  },
});
