/**
 * Least privilege both ways, from what the rehearsal recorded. Each role's grants as lines
 * (grant-lines.ts), split into the ones an allowed call used, the unused ones a reason in
 * stacks/permissions.ts (EXPLAINED_GRANTS) keeps, and the unused ones nothing explains. The used
 * and unexplained lines of a whole rehearsal are kept in stacks/grants.rehearsed.json, which the
 * infra test compares with the template's grants.
 */
import { readFile, writeFile } from "node:fs/promises";
import { EXPLAINED_GRANTS, type ExplainedGrant } from "../../stacks/permissions.ts";
import type { Json, ResolvedTemplate } from "../template.ts";
import type { IamGate } from "./gate.ts";
import { type Deployment, type GrantLine, recordedRoles, roleGrantLines } from "./grant-lines.ts";

export const GRANTS_FILE = "stacks/grants.rehearsed.json";

/** Per role name (`SubmitFunction`, `JobFlow`): the lines its calls used, sorted. */
type GrantRecord = Record<string, string[]>;

export interface RoleGrants {
  role: string;
  kind: "function" | "machine";
  used: string[];
  /** Never used, and no reason given: the template could drop them. */
  unexplained: string[];
  /** Never used, kept for the reason given. */
  explained: { grant: string; reason: string }[];
}

/** The reason EXPLAINED_GRANTS gives for a role's line, if any. */
export function explanationOf(
  role: { name: string; kind: "function" | "machine" },
  line: string,
  explained: readonly ExplainedGrant[] = EXPLAINED_GRANTS,
): string | undefined {
  return explained.find(
    (e) =>
      (e.roles === "every function" ? role.kind === "function" : e.roles.includes(role.name)) &&
      e.grants.some((g) => (typeof g === "string" ? g === line : g.test(line))),
  )?.reason;
}

const sorted = (lines: Iterable<string>) => [...new Set(lines)].sort();

/** The line of each grant the gate lists: the template's statement at the same place. */
function lineOf(
  lines: GrantLine[],
  rt: ResolvedTemplate,
  grant: { policy: string; statement: number; action: string; resource: string },
): string {
  const found = lines.find(
    (l) =>
      l.policy === grant.policy &&
      l.statement === grant.statement &&
      l.action === grant.action &&
      rt.resolve(l.resource as Json) === grant.resource,
  );
  if (found === undefined)
    throw new Error(
      `No statement of the template grants ${grant.action} on ${grant.resource} (${grant.policy} #${grant.statement}).`,
    );
  return found.line;
}

/** Every recorded role's lines from a rehearsal's gate: used, unexplained, explained. */
export function rehearsedGrants(
  rt: ResolvedTemplate,
  gate: IamGate,
  deployment: Deployment,
): RoleGrants[] {
  const use = gate.grantUse();
  return recordedRoles(rt.resources).map((role) => {
    const lines = roleGrantLines(rt.resources, role.roleLogicalId, deployment);
    const roleName = rt.nameOf(role.roleLogicalId);
    const mine = use.filter((g) => g.role === roleName);
    const used = new Set(mine.filter((g) => g.used).map((g) => lineOf(lines, rt, g)));
    const unused = sorted(lines.map((l) => l.line).filter((line) => !used.has(line)));
    const explained = unused.flatMap((grant) => {
      const reason = explanationOf(role, grant);
      return reason === undefined ? [] : [{ grant, reason }];
    });
    return {
      role: role.name,
      kind: role.kind,
      used: sorted(used),
      unexplained: unused.filter((line) => explanationOf(role, line) === undefined),
      explained,
    };
  });
}

/**
 * What the record keeps of a rehearsal: per role, the lines its calls used that EXPLAINED_GRANTS
 * does not already keep (a rare path a run may or may not take is explained, so the record does
 * not change from one run to the next).
 */
export function recordOf(roles: readonly RoleGrants[]): GrantRecord {
  return Object.fromEntries(
    [...roles]
      .sort((a, b) => a.role.localeCompare(b.role))
      .map((r) => [
        r.role,
        r.used.filter((line) => explanationOf({ name: r.role, kind: r.kind }, line) === undefined),
      ]),
  );
}

/** Lines in one record and not the other: `+ role: line` (rehearsed only), `- role: line` (committed only). */
export function recordDifferences(committed: GrantRecord, rehearsed: GrantRecord): string[] {
  const roles = sorted([...Object.keys(committed), ...Object.keys(rehearsed)]);
  return roles.flatMap((role) => {
    const before = new Set(committed[role] ?? []);
    const after = new Set(rehearsed[role] ?? []);
    return [
      ...[...after].filter((l) => !before.has(l)).map((l) => `+ ${role}: ${l}`),
      ...[...before].filter((l) => !after.has(l)).map((l) => `- ${role}: ${l}`),
    ];
  });
}

export async function readGrantRecord(file = GRANTS_FILE): Promise<GrantRecord> {
  return readFile(file, "utf8").then(
    (text) => JSON.parse(text) as GrantRecord,
    () => ({}),
  );
}

export async function writeGrantRecord(record: GrantRecord, file = GRANTS_FILE): Promise<void> {
  await writeFile(file, `${JSON.stringify(record, null, 2)}\n`);
}
