/**
 * `npm run rehearse [-- --only TEXT] [--verbose] [--write-grants] [--upgrade-fault]`: the
 * synthesized template run on this machine (stage.ts), the first week's scenarios through its API,
 * and the report (report.ts), with the AWS bill of the scenarios' jobs and the idle cost of a stage
 * (bill/); then an upgrade with jobs in flight (upgrade/), from the previous release's stage to this
 * checkout's, and its verdict (--upgrade-fault breaks the step input after the deploy: it fails).
 * Exits 1 on a denied call, a failed scenario, a function that could not start, a limit passed or a
 * failed upgrade verdict;
 * a run of every scenario (no --only) also on an unused grant stacks/permissions.ts does not
 * explain, and on grants used other than stacks/grants.rehearsed.json records (--write-grants
 * writes it from the run instead).
 */
import { parseArgs } from "node:util";
import { idleLines } from "./bill/idle.ts";
import { rehearseIdle } from "./bill/idle-run.ts";
import { billLines } from "./bill/summary.ts";
import { summaryLines, writeReport } from "./report.ts";
import { rehearse } from "./run.ts";
import { SCENARIOS } from "./scenarios/index.ts";
import { rehearseUpgrade } from "./upgrade/run.ts";
import { upgradeLine } from "./upgrade/verdict.ts";

/** The upgrade's step name, as --only matches it. */
const UPGRADE = "an upgrade with jobs in flight, from the previous release";

const { values } = parseArgs({
  options: {
    only: { type: "string" },
    verbose: { type: "boolean" },
    "write-grants": { type: "boolean" },
    "upgrade-fault": { type: "boolean" },
  },
});
if (values.only !== undefined && values["write-grants"] === true)
  throw new Error("--write-grants records a run of every scenario: leave --only out.");
const chosen = SCENARIOS.filter((s) => values.only === undefined || s.name.includes(values.only));
const upgrade = values.only === undefined || UPGRADE.includes(values.only);
const log =
  values.verbose === true
    ? { onLog: (fn: string, line: string) => console.log(`  [${fn}] ${line}`) }
    : {};
const scenariosOk = chosen.length > 0 || !upgrade ? await rehearseScenarios() : true;
const upgradeOk = upgrade ? await rehearseUpgradeStep() : true;
process.exitCode = scenariosOk && upgradeOk ? 0 : 1;

async function rehearseScenarios(): Promise<boolean> {
  console.log(`rehearsal: synthesizing stage "rehearsal" and bringing it up ...`);
  const report = await rehearse({
    scenarios: chosen,
    ...(values.only !== undefined
      ? {}
      : { grants: values["write-grants"] === true ? ("write" as const) : ("check" as const) }),
    stage: log,
    onStage: (stage) =>
      console.log(
        `rehearsal: ${stage.functions.length} functions up (API at ${stage.apiUrl}); ${chosen.length} scenario(s)`,
      ),
    onResult: (r) =>
      console.log(
        `  ${r.ok ? "ok  " : "FAIL"} ${r.name}${r.error === undefined ? "" : `: ${r.error}`}`,
      ),
  });
  // What the stage costs a month with no job, on a fresh one (docs/deploy.md): told, never a reason to fail.
  console.log("rehearsal: measuring the idle cost on a fresh stage ...");
  const idle = await rehearseIdle().catch((error: unknown) =>
    error instanceof Error ? error : new Error(String(error)),
  );
  // Kept beside the report as the bill is.
  const withIdle = { ...report, idle };
  await writeReport(idle instanceof Error ? report : withIdle);
  for (const line of summaryLines(report)) console.log(line);
  if (report.bill !== undefined) for (const line of billLines(report.bill)) console.log(line);
  if (idle instanceof Error) console.log(`idle cost not measured: ${idle.message}`);
  else for (const line of idleLines(idle.bill, idle.ticks)) console.log(line);
  return report.ok;
}

async function rehearseUpgradeStep(): Promise<boolean> {
  console.log(`rehearsal: ${UPGRADE} ...`);
  const result = await rehearseUpgrade({
    ...log,
    onLine: (line) => console.log(`  ${line}`),
    renameStepInput: values["upgrade-fault"] === true,
  }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  if (result instanceof Error) {
    const cause = result.cause instanceof Error ? ` (${result.cause.message})` : "";
    console.log(`  FAIL ${UPGRADE}: ${result.message}${cause}`);
    return false;
  }
  const { verdict } = result;
  for (const [kind, list] of Object.entries(verdict.findings))
    for (const finding of list.slice(0, 5)) console.log(`  ${kind}: ${finding}`);
  console.log(`${upgradeLine(verdict)} (from ${result.release}; ${verdict.ok ? "ok" : "FAIL"})`);
  return verdict.ok;
}
