/**
 * One rehearsal: the stage up, the scenarios through its API one after another, everything the
 * functions started allowed to finish, the report built from what was recorded, the stage down.
 * `npm run rehearse` (main.ts) runs every scenario and judges the grants; the tests run a few, some
 * on a template with a grant or a setting taken out.
 */
import { SETTINGS } from "@reelay/core/wiring";
import { type RehearsalBill, rehearsalBill } from "./bill/summary.ts";
import { readGrantRecord, recordDifferences, recordOf, writeGrantRecord } from "./iam/record.ts";
import { buildReport, type Report, reportFrom, type ScenarioResult } from "./report.ts";
import type { Scenario } from "./scenarios/support.ts";
import { type Stage, type StageOptions, startStage } from "./stage.ts";

async function runScenario(stage: Stage, scenario: Scenario): Promise<ScenarioResult> {
  const started = Date.now();
  try {
    await scenario.run(stage);
    return { name: scenario.name, ok: true, ms: Date.now() - started };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { name: scenario.name, ok: false, ms: Date.now() - started, error: message };
  }
}

export interface RehearsalOptions {
  stage?: StageOptions;
  scenarios: readonly Scenario[];
  /** Each scenario's result as it ends. */
  onResult?: (result: ScenarioResult) => void;
  /** Once the stage is up. */
  onStage?: (stage: Stage) => void;
  /**
   * Judge the grants (a run of every scenario only): fail on an unused grant nothing explains and
   * on a record (stacks/grants.rehearsed.json) other than this run's ("check"), or write the
   * record from this run ("write").
   */
  grants?: "check" | "write";
}

/** The report with its grants judged against the committed record, which "write" replaces. */
async function judgeGrants(report: Report, mode: "check" | "write"): Promise<Report> {
  const rehearsed = recordOf(report.grants.roles);
  const differences = recordDifferences(await readGrantRecord(), rehearsed);
  // A failed scenario may have skipped a path: its grants would be missing from the record.
  const write = mode === "write" && report.scenarios.every((s) => s.ok);
  if (write) await writeGrantRecord(rehearsed);
  return reportFrom({
    ...report,
    grants: {
      ...report.grants,
      checked: true,
      recordDifferences: differences,
      recordWritten: write,
    },
  });
}

export async function rehearse(
  options: RehearsalOptions,
): Promise<Report & { bill?: RehearsalBill }> {
  const startedAt = new Date();
  const stage = await startStage(options.stage);
  options.onStage?.(stage);
  const results: ScenarioResult[] = [];
  try {
    for (const scenario of options.scenarios) {
      const result = await runScenario(stage, scenario);
      options.onResult?.(result);
      results.push(result);
    }
    await stage.idle();
    const report = buildReport(stage, results, startedAt, Object.keys(SETTINGS));
    const judged =
      options.grants === undefined ? report : await judgeGrants(report, options.grants);
    // What the scenarios would cost on AWS (docs/performance.md): told, never a reason to fail.
    const bill = await rehearsalBill(stage).catch(() => undefined);
    return bill === undefined ? judged : { ...judged, bill };
  } finally {
    await stage.close();
  }
}
