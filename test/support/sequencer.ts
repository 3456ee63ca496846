/**
 * Runs the isolated project's files first, then the shared project's, the longest first in each,
 * so that the last minutes of `npm test` are not one long file running alone while the other
 * workers idle. The isolated files go first because vitest keeps a shared worker (and the modules
 * it loaded) only while the next file in its queue is of the same project: interleaved, it started
 * 118 workers in a run instead of 28. vitest's own order, on a fresh clone (no results cache yet),
 * runs the largest files first, which put the 2-minute soak near the end.
 *
 * A file's expected duration comes from vitest's results cache when this checkout has run it, else
 * from `durations.json` (committed, written by `REELAY_TEST_DURATIONS=write npm test`). A file in
 * neither (a new one) is assumed to take NEW_FILE_MS. Durations only order the files: a stale
 * figure costs speed, never correctness.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const DURATIONS_FILE = join(import.meta.dirname, "durations.json");
const NEW_FILE_MS = 10_000;

function committedDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(DURATIONS_FILE, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const committed = committedDurations();
    const root = this.ctx.config.root;
    const expected = (spec: TestSpecification): number => {
      const path = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      return cached?.duration ?? committed[path] ?? NEW_FILE_MS;
    };
    const ms = new Map(files.map((spec) => [spec, expected(spec)]));
    const isolated = (spec: TestSpecification) => (spec.project.config.isolate ? 0 : 1);
    return [...files].sort(
      (a, b) => isolated(a) - isolated(b) || (ms.get(b) ?? 0) - (ms.get(a) ?? 0),
    );
  }
}
