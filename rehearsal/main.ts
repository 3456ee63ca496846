/**
 * `npm run rehearse [-- --only NAME]`: the synthesized template run on this machine (stage.ts),
 * the first week's scenarios through its API, and the report (report.ts). Exits 1 on a denied
 * call, a failed scenario, a function that could not start, or a limit passed.
 */
import { parseArgs } from "node:util";
import { SETTINGS } from "@reelay/core/wiring";
import { buildReport, type ScenarioResult, summaryLines, writeReport } from "./report.ts";
import { JOB_SCENARIOS } from "./scenarios/jobs.ts";
import type { Scenario } from "./scenarios/support.ts";
import { type Stage, startStage } from "./stage.ts";

const { values } = parseArgs({
  options: { only: { type: "string" }, verbose: { type: "boolean" } },
});

const SCENARIOS: Scenario[] = [...JOB_SCENARIOS];

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

const startedAt = new Date();
const chosen = SCENARIOS.filter((s) => values.only === undefined || s.name.includes(values.only));
console.log(`rehearsal: synthesizing stage "rehearsal" and bringing it up ...`);
const stage = await startStage({
  ...(values.verbose === true
    ? { onLog: (fn: string, line: string) => console.log(`  [${fn}] ${line}`) }
    : {}),
});
console.log(
  `rehearsal: ${stage.functions.length} functions up (API at ${stage.apiUrl}); ${chosen.length} scenario(s)`,
);
const results: ScenarioResult[] = [];
try {
  for (const scenario of chosen) {
    const result = await runScenario(stage, scenario);
    console.log(
      `  ${result.ok ? "ok  " : "FAIL"} ${scenario.name}${result.error === undefined ? "" : `: ${result.error}`}`,
    );
    results.push(result);
  }
  await stage.idle();
} finally {
  const report = buildReport(stage, results, startedAt, Object.keys(SETTINGS));
  await writeReport(report);
  for (const line of summaryLines(report)) console.log(line);
  await stage.close();
  process.exitCode = report.ok ? 0 : 1;
}
