/**
 * Prints the plain closing line `N passed, N failed, N skipped` that CI reads, after vitest's own
 * report, so a run's outcome is visible in any log reader. When anything failed, the failures (file
 * and full name, with the first line of the error) are listed just above that line, so they are
 * found at the end of a long log without scrolling back through vitest's report.
 *
 * With `REELAY_TEST_DURATIONS=write` it also writes each file's duration to the file the sequencer
 * orders a fresh clone's run by (test/support/sequencer.ts).
 */
import { writeFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";
import { DURATIONS_FILE } from "./sequencer.ts";

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let skipped = 0;
    const failures: string[] = [];
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") {
          failures.push(failure(module.relativeModuleId, test.fullName, test.result().errors));
        } else skipped++;
      }
      // A file that did not load, or a hook that threw, fails outside any test.
      for (const suite of [module, ...module.children.allSuites()]) {
        const errors = suite.errors();
        const name = suite.type === "module" ? "(the file itself)" : `${suite.fullName} (a hook)`;
        if (errors.length > 0) failures.push(failure(module.relativeModuleId, name, errors));
      }
    }
    if (process.env.REELAY_TEST_DURATIONS === "write") writeDurations(modules);
    if (failures.length > 0) process.stdout.write(`\nFailed:\n${failures.join("\n")}\n`);
    process.stdout.write(`\n${passed} passed, ${failures.length} failed, ${skipped} skipped\n`);
  }
}

/** `  file > suite > test`, then the first line of the first error beneath it. */
function failure(
  file: string,
  name: string,
  errors: ReadonlyArray<{ message?: string }> | undefined,
): string {
  const message = errors?.[0]?.message?.split("\n")[0]?.trim();
  return message ? `  ${file} > ${name}\n      ${message}` : `  ${file} > ${name}`;
}

function writeDurations(modules: ReadonlyArray<TestModule>): void {
  const durations = modules
    .map((module) => [module.relativeModuleId, Math.round(module.diagnostic().duration)] as const)
    .sort((a, b) => b[1] - a[1]);
  writeFileSync(DURATIONS_FILE, `${JSON.stringify(Object.fromEntries(durations), null, 2)}\n`);
}
