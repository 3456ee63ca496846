/**
 * `npm run rehearse [-- --only TEXT] [--verbose] [--write-grants]`: the synthesized template run on
 * this machine (stage.ts), the first week's scenarios through its API, and the report (report.ts),
 * with the AWS bill of the scenarios' jobs and the idle cost of a stage (bill/).
 * Exits 1 on a denied call, a failed scenario, a function that could not start, or a limit passed;
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

const { values } = parseArgs({
  options: {
    only: { type: "string" },
    verbose: { type: "boolean" },
    "write-grants": { type: "boolean" },
  },
});
if (values.only !== undefined && values["write-grants"] === true)
  throw new Error("--write-grants records a run of every scenario: leave --only out.");
const chosen = SCENARIOS.filter((s) => values.only === undefined || s.name.includes(values.only));
console.log(`rehearsal: synthesizing stage "rehearsal" and bringing it up ...`);
const report = await rehearse({
  scenarios: chosen,
  ...(values.only !== undefined
    ? {}
    : { grants: values["write-grants"] === true ? ("write" as const) : ("check" as const) }),
  stage:
    values.verbose === true
      ? { onLog: (fn: string, line: string) => console.log(`  [${fn}] ${line}`) }
      : {},
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
process.exitCode = report.ok ? 0 : 1;
