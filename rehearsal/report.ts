/**
 * What a rehearsal found, per function: the AWS calls it made (operation, resource, allowed), the
 * ones its role would be denied (and why), the grants no call used (those stacks/permissions.ts
 * explains apart from the rest), its peak memory against its MemorySize and its longest run against
 * its Timeout, and the service limits a payload came near or passed. Written as JSON to a
 * git-ignored folder and summed up as a short table on the terminal.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { REHEARSAL_ACCOUNT, REHEARSAL_STAGE } from "./assembly.ts";
import { shortLogicalId } from "./iam/grant-lines.ts";
import { GRANTS_FILE, rehearsedGrants, type RoleGrants } from "./iam/record.ts";
import type { Stage } from "./stage.ts";

const REPORT_FILE = ".reelay/rehearsal/report.json";

/** Lambda's environment holds at most 4 KB of variable names and values together. */
const ENVIRONMENT_LIMIT_BYTES = 4096;
/** Lambda's synchronous response limit, as its error states it (6 MiB and 100 bytes). */
const RESPONSE_LIMIT_BYTES = 6_291_556;
/** A Step Functions state's input or output: 256 KiB of UTF-8 (service quotas of Step Functions). */
const STATE_PAYLOAD_LIMIT_BYTES = 256 * 1024;
/** One EventBridge entry, as PutEvents counts its size: 256 KB. */
const EVENT_ENTRY_LIMIT_BYTES = 256 * 1024;
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
  /** The largest response an invocation returned (its JSON, or its error's). */
  maxResponseBytes: number;
  calls: CallRow[];
  denied: CallRow[];
  /** Grants of the function's role no call used and nothing explains (lines: iam/grant-lines.ts). */
  unusedGrants: string[];
  /** Grants no call used, kept for the reason stacks/permissions.ts gives. */
  explainedGrants: { grant: string; reason: string }[];
}

/** The largest payload a service was handed, and where it was seen. */
interface Largest {
  bytes: number;
  where: string;
}

interface Payloads {
  /** A state's input or output in an execution of the state machine. */
  state: Largest;
  /** One entry of a PutEvents call. */
  eventEntry: Largest;
}

interface GrantsFound {
  /**
   * Whether this run may judge the grants: only a full run (every scenario) sees every path the
   * scenarios take, so only it fails on an unused grant nothing explains, or on a record that
   * differs from stacks/grants.rehearsed.json.
   */
  checked: boolean;
  /** Every role of the template the rehearsal ran: functions and the state machine. */
  roles: RoleGrants[];
  /** The record's lines this run did not use (`- role: line`) or used beyond it (`+ role: line`). */
  recordDifferences: string[];
  /** The record was written from this run (`--write-grants`) rather than compared. */
  recordWritten: boolean;
}

export interface Report {
  startedAt: string;
  durationS: number;
  scenarios: ScenarioResult[];
  functions: FunctionReport[];
  grants: GrantsFound;
  payloads: Payloads;
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

/** A sentence for a value past its limit, or past NEAR of it; nothing below. */
function limitCheck(
  value: number,
  limit: number,
  what: string,
): { passed: boolean; what: string }[] {
  if (value > limit) return [{ passed: true, what: `${what} passed` }];
  if (value > limit * NEAR) return [{ passed: false, what: `${what} near` }];
  return [];
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function functionLimits(f: FunctionReport): Report["limits"] {
  return [
    ...limitCheck(
      f.peakMemoryMb,
      f.memoryMb,
      `${f.name}: peak memory ${f.peakMemoryMb} MB of MemorySize ${f.memoryMb} MB`,
    ),
    ...limitCheck(
      f.longestMs,
      f.timeoutS * 1000,
      `${f.name}: longest run ${f.longestMs} ms of Timeout ${f.timeoutS} s`,
    ),
    ...limitCheck(
      f.environmentBytes,
      ENVIRONMENT_LIMIT_BYTES,
      `${f.name}: environment ${f.environmentBytes} bytes of 4 KB`,
    ),
    ...limitCheck(
      f.maxResponseBytes,
      RESPONSE_LIMIT_BYTES,
      `${f.name}: largest response ${kb(f.maxResponseBytes)} of Lambda's 6 MB`,
    ),
    ...(f.timeouts > 0
      ? [{ passed: true, what: `${f.name}: ${f.timeouts} run(s) timed out` }]
      : []),
  ];
}

/** The limits each function and each payload came near or passed. */
function limitsOf(functions: FunctionReport[], payloads: Payloads): Report["limits"] {
  return [
    ...functions.flatMap(functionLimits),
    ...limitCheck(
      payloads.state.bytes,
      STATE_PAYLOAD_LIMIT_BYTES,
      `Step Functions: largest state payload ${kb(payloads.state.bytes)} (${payloads.state.where}) of 256 KB`,
    ),
    ...limitCheck(
      payloads.eventEntry.bytes,
      EVENT_ENTRY_LIMIT_BYTES,
      `EventBridge: largest entry ${kb(payloads.eventEntry.bytes)} (${payloads.eventEntry.where}) of 256 KB`,
    ),
  ];
}

/** What a rehearsal observed, before the limits and the verdict are drawn from it. */
export type Observed = Omit<Report, "limits" | "ok">;

/**
 * The report from what was observed: the limits flagged, and whether the rehearsal passed (no
 * failed scenario, denied call, failed cold start, passed limit or refused call; and, in a run
 * that checks them, no unexplained unused grant and a record as committed).
 */
export function reportFrom(observed: Observed): Report {
  const limits = limitsOf(observed.functions, observed.payloads);
  const { grants } = observed;
  const grantsHold =
    !grants.checked ||
    (grants.roles.every((r) => r.unexplained.length === 0) &&
      (grants.recordWritten || grants.recordDifferences.length === 0));
  return {
    ...observed,
    limits,
    ok:
      observed.scenarios.every((s) => s.ok) &&
      observed.functions.every((f) => f.denied.length === 0 && f.initErrors.length === 0) &&
      limits.every((l) => !l.passed) &&
      observed.refusals.length === 0 &&
      grantsHold,
  };
}

function functionReport(
  { spec, role, lambda }: Stage["functions"][number],
  stage: Stage,
  grants: RoleGrants | undefined,
): FunctionReport {
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
    maxResponseBytes: stats.maxResponseBytes,
    calls: calls.filter((c) => c.allowed),
    denied: calls.filter((c) => !c.allowed),
    unusedGrants: grants?.unexplained ?? [],
    explainedGrants: grants?.explained ?? [],
  };
}

export function buildReport(
  stage: Stage,
  scenarios: ScenarioResult[],
  startedAt: Date,
  settings: readonly string[],
): Report {
  const roles = rehearsedGrants(stage.template, stage.gate, {
    stage: REHEARSAL_STAGE,
    account: REHEARSAL_ACCOUNT,
  });
  const byRole = new Map(roles.map((r) => [r.role, r]));
  const functions = stage.functions.map((f) =>
    functionReport(f, stage, byRole.get(shortLogicalId(f.spec.logicalId))),
  );
  const passed = new Set(stage.functions.flatMap((f) => Object.keys(f.spec.environment)));
  return reportFrom({
    startedAt: startedAt.toISOString(),
    durationS: Math.round((Date.now() - startedAt.getTime()) / 100) / 10,
    scenarios,
    functions,
    grants: { checked: false, roles, recordDifferences: [], recordWritten: false },
    payloads: { state: stage.states.largestPayload(), eventEntry: stage.bus.largestEntry() },
    refusals: stage.gateway.refusals().map((r) => ({ kind: r.kind, message: r.message })),
    settingsNotPassed: settings.filter((name) => !passed.has(name)),
  });
}

export async function writeReport(report: Report, file = REPORT_FILE): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
}

function tableRow(f: FunctionReport): string {
  const cells = [
    String(f.calls.reduce((sum, c) => sum + c.count, 0)).padStart(5),
    String(f.denied.length).padStart(6),
    String(f.unusedGrants.length).padStart(6),
    String(f.explainedGrants.length).padStart(9),
    `${f.peakMemoryMb} / ${f.memoryMb}`.padStart(13),
    `${(f.longestMs / 1000).toFixed(1)} s / ${f.timeoutS} s`.padStart(17),
  ];
  return `${shortLogicalId(f.logicalId).padEnd(30).slice(0, 30)}${cells.join("  ")}`;
}

/** The explained grants, one paragraph per reason: the reason, then each role's lines. */
function explainedLines(roles: readonly RoleGrants[]): string[] {
  const byReason = new Map<string, Map<string, string[]>>();
  for (const role of roles)
    for (const { grant, reason } of role.explained) {
      const lines = byReason.get(reason) ?? new Map<string, string[]>();
      lines.set(role.role, [...(lines.get(role.role) ?? []), grant]);
      byReason.set(reason, lines);
    }
  if (byReason.size === 0) return [];
  return [
    "unused grants kept for a reason (EXPLAINED_GRANTS, stacks/permissions.ts):",
    ...[...byReason].flatMap(([reason, lines]) => [
      `  - ${reason}`,
      ...[...lines].map(([role, grants]) => `      ${role}: ${grants.join("; ")}`),
    ]),
  ];
}

/** The unexplained unused grants and the record's differences, failures only in a full run. */
function grantLines(grants: GrantsFound): string[] {
  const label = grants.checked
    ? "UNUSED GRANT"
    : "unused grant (not judged: not every scenario ran)";
  const lines = grants.roles.flatMap((r) => r.unexplained.map((g) => `${label} ${r.role}: ${g}`));
  if (grants.recordDifferences.length > 0) {
    const head = grants.recordWritten
      ? `${GRANTS_FILE} written from this run; it changed:`
      : `${GRANTS_FILE} differs from the grants this run used (npm run rehearse -- --write-grants records them):`;
    lines.push(head, ...grants.recordDifferences.map((d) => `  ${d}`));
  }
  return lines;
}

/** The terminal's summary: one line per function, then what failed. */
export function summaryLines(report: Report): string[] {
  const lines = [
    "function                      calls  denied  unused  explained  peak MB / mem  longest / timeout",
    ...report.functions.map(tableRow),
    "",
    ...report.scenarios.map(
      (s) =>
        `${s.ok ? "ok  " : "FAIL"} ${s.name} (${(s.ms / 1000).toFixed(1)} s)${s.error === undefined ? "" : `: ${s.error}`}`,
    ),
    ...explainedLines(report.grants.roles),
  ];
  for (const f of report.functions) {
    for (const d of f.denied)
      lines.push(`DENIED ${f.name}: ${d.operation} on ${d.resource}: ${d.reason ?? ""}`);
    for (const e of f.initErrors) lines.push(`COLD START FAILED ${f.name}: ${e}`);
  }
  lines.push(...grantLines(report.grants));
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
