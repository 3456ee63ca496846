/**
 * One rehearsal: the stage up, the scenarios through its API one after another, everything the
 * functions started allowed to finish, the report built from what was recorded, the stage down.
 * `npm run rehearse` (main.ts) runs every scenario; the tests run a few, some on a template with a
 * grant or a setting taken out.
 */
import { SETTINGS } from "@reelay/core/wiring";
import { type RehearsalBill, rehearsalBill } from "./bill/summary.ts";
import { buildReport, type Report, type ScenarioResult } from "./report.ts";
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
    // What the scenarios would cost on AWS (docs/performance.md): told, never a reason to fail.
    const bill = await rehearsalBill(stage).catch(() => undefined);
    return bill === undefined ? report : { ...report, bill };
  } finally {
    await stage.close();
  }
}
