/**
 * `npm run rehearse [-- --only TEXT] [--verbose] [--write-grants]`: the synthesized template run on
 * this machine (stage.ts), the first week's scenarios through its API, and the report (report.ts).
 * Exits 1 on a denied call, a failed scenario, a function that could not start, or a limit passed;
 * a run of every scenario (no --only) also on an unused grant stacks/permissions.ts does not
 * explain, and on grants used other than stacks/grants.rehearsed.json records (--write-grants
 * writes it from the run instead).
 */
import { parseArgs } from "node:util";
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
await writeReport(report);
for (const line of summaryLines(report)) console.log(line);
if (report.bill !== undefined) for (const line of billLines(report.bill)) console.log(line);
process.exitCode = report.ok ? 0 : 1;
