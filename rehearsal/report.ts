/**
 * What a rehearsal found, per function: the AWS calls it made (operation, resource, allowed), the
 * ones its role would be denied (and why), the grants no call used, its peak memory against its
 * MemorySize and its longest run against its Timeout, and the service limits a payload came near.
 * Written as JSON to a git-ignored folder and summed up as a short table on the terminal.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { UnusedGrant } from "./iam/gate.ts";
import type { Stage } from "./stage.ts";

const REPORT_FILE = ".reelay/rehearsal/report.json";

/** Lambda's environment holds at most 4 KB of variable names and values together. */
const ENVIRONMENT_LIMIT_BYTES = 4096;
/** Flag a payload at this share of its service's limit. */
const NEAR = 0.8;

export interface ScenarioResult {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}

interface CallRow {
  operation: string;
  resource: string;
  allowed: boolean;
  count: number;
  reason?: string;
}

interface FunctionReport {
  name: string;
  logicalId: string;
  invocations: number;
  coldStarts: number;
  errors: number;
  timeouts: number;
  initErrors: string[];
  peakMemoryMb: number;
  memoryMb: number;
  longestMs: number;
  timeoutS: number;
  billedMs: number;
  logBytes: number;
  environmentBytes: number;
  calls: CallRow[];
  denied: CallRow[];
  unusedGrants: UnusedGrant[];
}

export interface Report {
  startedAt: string;
  durationS: number;
  scenarios: ScenarioResult[];
  functions: FunctionReport[];
  /** Limits a function or payload passed, or came within 80% of: each a sentence. */
  limits: { passed: boolean; what: string }[];
  /** Calls the gateway could not name or answer. */
  refusals: { kind: string; message: string }[];
  /** Settings the config module reads that the template passes to no function. */
  settingsNotPassed: string[];
  ok: boolean;
}

function environmentBytes(environment: Record<string, string>): number {
  return Object.entries(environment).reduce(
    (sum, [name, value]) => sum + Buffer.byteLength(name) + Buffer.byteLength(value),
    0,
  );
}

/** Each function's calls, one row per operation and resource, from the gate's record. */
function callRows(stage: Stage, roleName: string): CallRow[] {
  const rows = new Map<string, CallRow>();
  for (const { role, call, verdict } of stage.gate.calls()) {
    if (role !== roleName) continue;
    for (const decision of verdict.decisions) {
      const key = `${decision.request.action} ${decision.request.resource} ${decision.allowed}`;
      const row = rows.get(key) ?? {
        operation: `${call.service}:${call.operation} (${decision.request.action})`,
        resource: decision.request.resource,
        allowed: decision.allowed,
        count: 0,
        ...(decision.reason === undefined ? {} : { reason: decision.reason }),
      };
      row.count += 1;
      rows.set(key, row);
    }
  }
  return [...rows.values()];
}

function limitsOf(functions: FunctionReport[]): Report["limits"] {
  return functions.flatMap((f) => {
    const found: Report["limits"] = [];
    const check = (value: number, limit: number, what: string) => {
      if (value > limit) found.push({ passed: true, what: `${f.name}: ${what} passed` });
      else if (value > limit * NEAR) found.push({ passed: false, what: `${f.name}: ${what} near` });
    };
    check(
      f.peakMemoryMb,
      f.memoryMb,
      `peak memory ${f.peakMemoryMb} MB of MemorySize ${f.memoryMb} MB`,
    );
    check(
      f.longestMs,
      f.timeoutS * 1000,
      `longest run ${f.longestMs} ms of Timeout ${f.timeoutS} s`,
    );
    check(
      f.environmentBytes,
      ENVIRONMENT_LIMIT_BYTES,
      `environment ${f.environmentBytes} bytes of 4 KB`,
    );
    if (f.timeouts > 0)
      found.push({ passed: true, what: `${f.name}: ${f.timeouts} run(s) timed out` });
    return found;
  });
}

export function buildReport(
  stage: Stage,
  scenarios: ScenarioResult[],
  startedAt: Date,
  settings: readonly string[],
): Report {
  const unused = stage.gate.unusedGrants();
  const functions = stage.functions.map(({ spec, role, lambda }): FunctionReport => {
    const stats = lambda.stats();
    const calls = callRows(stage, role.name);
    return {
      name: spec.name,
      logicalId: spec.logicalId,
      invocations: stats.invocations,
      coldStarts: stats.coldStarts,
      errors: stats.errors,
      timeouts: stats.timeouts,
      initErrors: stats.initErrors,
      peakMemoryMb: stats.peakMemoryMb,
      memoryMb: spec.memoryMb,
      longestMs: stats.longestMs,
      timeoutS: spec.timeoutS,
      billedMs: stats.totalBilledMs,
      logBytes: stats.logBytes,
      environmentBytes: environmentBytes(spec.environment),
      calls: calls.filter((c) => c.allowed),
      denied: calls.filter((c) => !c.allowed),
      unusedGrants: unused.filter((g) => g.role === role.name),
    };
  });
  const passed = new Set(stage.functions.flatMap((f) => Object.keys(f.spec.environment)));
  const limits = limitsOf(functions);
  const refusals = stage.gateway.refusals().map((r) => ({ kind: r.kind, message: r.message }));
  return {
    startedAt: startedAt.toISOString(),
    durationS: Math.round((Date.now() - startedAt.getTime()) / 100) / 10,
    scenarios,
    functions,
    limits,
    refusals,
    settingsNotPassed: settings.filter((name) => !passed.has(name)),
    ok:
      scenarios.every((s) => s.ok) &&
      functions.every((f) => f.denied.length === 0 && f.initErrors.length === 0) &&
      limits.every((l) => !l.passed) &&
      refusals.length === 0,
  };
}

export async function writeReport(report: Report, file = REPORT_FILE): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
}

/** The terminal's summary: one line per function, then what failed. */
export function summaryLines(report: Report): string[] {
  const lines = [
    "function                      calls  denied  unused  peak MB / mem  longest / timeout",
    ...report.functions.map(
      (f) =>
        `${f.logicalId
          .replace(/[0-9A-F]{8}$/, "")
          .padEnd(30)
          .slice(
            0,
            30,
          )}${String(f.calls.reduce((s, c) => s + c.count, 0)).padStart(5)}  ${String(f.denied.length).padStart(6)}  ${String(f.unusedGrants.length).padStart(6)}  ${`${f.peakMemoryMb} / ${f.memoryMb}`.padStart(13)}  ${`${(f.longestMs / 1000).toFixed(1)} s / ${f.timeoutS} s`.padStart(17)}`,
    ),
    "",
    ...report.scenarios.map(
      (s) =>
        `${s.ok ? "ok  " : "FAIL"} ${s.name} (${(s.ms / 1000).toFixed(1)} s)${s.error === undefined ? "" : `: ${s.error}`}`,
    ),
  ];
  for (const f of report.functions) {
    for (const d of f.denied)
      lines.push(`DENIED ${f.name}: ${d.operation} on ${d.resource}: ${d.reason ?? ""}`);
    for (const e of f.initErrors) lines.push(`COLD START FAILED ${f.name}: ${e}`);
  }
  for (const l of report.limits)
    lines.push(`${l.passed ? "LIMIT PASSED" : "near a limit"}: ${l.what}`);
  for (const r of report.refusals) lines.push(`REFUSED (${r.kind}): ${r.message}`);
  if (report.settingsNotPassed.length > 0)
    lines.push(`settings no function is given: ${report.settingsNotPassed.join(", ")}`);
  lines.push(
    `rehearsal ${report.ok ? "passed" : "FAILED"} in ${report.durationS} s; report in ${REPORT_FILE}`,
  );
  return lines;
}
