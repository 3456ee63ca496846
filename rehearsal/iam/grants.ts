/**
 * What a role's policies grant, listed (not evaluated): each Allow statement's actions and
 * resources as written, so that the gate can say which of them no allowed request used.
 */
import { isRecord } from "./iam-request.ts";

export interface PolicyDocument {
  Version?: string;
  Statement: unknown[] | unknown;
}

/** One (action, resource) pair of an Allow statement, as the statement writes them. */
export interface Grant {
  policy: string;
  /** The statement's index in the policy's Statement list, from 0. */
  statement: number;
  action: string;
  resource: string;
}

/** A policy's statements as a list: a document may give a single statement unwrapped. */
export function statementsOf(document: PolicyDocument): unknown[] {
  return Array.isArray(document.Statement) ? document.Statement : [document.Statement];
}

function listOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * A NotAction or NotResource statement grants everything but a list: it is one entry, named by
 * that list, since there is nothing else to name it by.
 */
export function entriesOf(statement: Record<string, unknown>, field: string): string[] {
  const listed = listOf(statement[field]);
  if (listed.length > 0) return listed;
  const excluded = listOf(statement[`Not${field}`]);
  return excluded.length > 0 ? [`Not${field} ${excluded.join(", ")}`] : [];
}

/** Every (action, resource) pair the Allow statements of these policies grant, in order. */
export function grantsOf(policies: readonly { name: string; document: PolicyDocument }[]): Grant[] {
  return policies.flatMap(({ name, document }) =>
    statementsOf(document).flatMap((statement, index) => {
      if (!isRecord(statement) || statement.Effect !== "Allow") return [];
      const resources = entriesOf(statement, "Resource");
      return entriesOf(statement, "Action").flatMap((action) =>
        resources.map((resource) => ({ policy: name, statement: index, action, resource })),
      );
    }),
  );
}

export function grantKey(role: string, grant: Grant): string {
  return JSON.stringify([role, grant.policy, grant.statement, grant.action, grant.resource]);
}
