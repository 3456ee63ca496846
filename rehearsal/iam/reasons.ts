/**
 * A denial as a sentence a person acts on: which action on which resource (and with which context
 * keys), whether no statement allows it or a statement denies it, and, for the first, the
 * statements that came closest, since the fix is usually one of them.
 */
import type { RequestAnalysis } from "@cloud-copilot/iam-simulate";
import type { PreparedRole, StatementAnalysis } from "./prepared-role.ts";
import { type IamRequest, isRecord } from "./iam-request.ts";

/** Near misses named in one reason: enough to point at the fix, few enough to read. */
const MAX_HINTS = 3;

export function describeRequest(request: IamRequest): string {
  const context = Object.entries(request.context).map(
    ([key, value]) => `${key}=${Array.isArray(value) ? `[${value.join(", ")}]` : value}`,
  );
  const withContext = context.length === 0 ? "" : ` with ${context.join(" and ")}`;
  return `${request.action} on ${request.resource}${withContext}`;
}

function rawStatement(role: PreparedRole, analysis: StatementAnalysis): Record<string, unknown> {
  const raw = role.statements.get(analysis.policyId)?.[analysis.statement.index() - 1];
  return isRecord(raw) ? raw : {};
}

/** `policy P Statement[2] (Sid S)`: the index from 0, as in the document's Statement list. */
function statementName(analysis: StatementAnalysis): string {
  const sid = analysis.statement.sid();
  const named = sid === undefined ? "" : ` (Sid ${sid})`;
  return `policy ${analysis.policyId} Statement[${analysis.statement.index() - 1}]${named}`;
}

function conditionText(raw: Record<string, unknown>): string {
  return raw.Condition === undefined ? "" : JSON.stringify(raw.Condition);
}

export function denialReason(
  role: PreparedRole,
  request: IamRequest,
  analysis: RequestAnalysis | undefined,
): string {
  const what = describeRequest(request);
  const denying = analysis?.identityAnalysis?.denyStatements ?? [];
  if (analysis?.result === "ExplicitlyDenied" && denying.length > 0) {
    const by = denying.map((s) => {
      const condition = conditionText(rawStatement(role, s));
      return `${statementName(s)}${condition === "" ? "" : ` whose condition ${condition} holds`}`;
    });
    return `${what} is denied explicitly for role ${role.name} by ${by.join("; ")}`;
  }
  const hints = nearMisses(role, analysis?.identityAnalysis?.unmatchedStatements ?? []);
  const close = hints.length === 0 ? "" : `; closest: ${hints.join("; ")}`;
  return `${what} is denied implicitly for role ${role.name}: no statement allows it${close}`;
}

/**
 * Allow statements that match the action and the resource but not the condition, then those that
 * match the action on other resources: what would have to change for the request to pass.
 */
function nearMisses(role: PreparedRole, unmatched: StatementAnalysis[]): string[] {
  const allows = unmatched.filter((s) => s.statement.isAllow() && s.actionMatch);
  const conditional = allows
    .filter((s) => s.resourceMatch)
    .map((s) => {
      const condition = conditionText(rawStatement(role, s));
      return `${statementName(s)} allows it only when ${condition === "" ? "its conditions hold" : condition}`;
    });
  const elsewhere = allows
    .filter((s) => !s.resourceMatch)
    .map((s) => {
      const raw = rawStatement(role, s);
      return `${statementName(s)} allows the action only on ${JSON.stringify(raw.Resource ?? raw.NotResource)}`;
    });
  return [...conditional, ...elsewhere].slice(0, MAX_HINTS);
}
