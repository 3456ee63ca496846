/**
 * A role as the gate evaluates it: its policies in the evaluator's shape, and their statements by
 * policy name, so that a reason or a used grant can point at the statement as the document has it.
 */
import type { RequestAnalysis } from "@cloud-copilot/iam-simulate";
import { type PolicyDocument, statementsOf } from "./grants.ts";

export interface PreparedRole {
  name: string;
  arn: string;
  accountId: string;
  policies: { name: string; policy: PolicyDocument }[];
  statements: ReadonlyMap<string, unknown[]>;
}

/** The evaluator's analysis of one statement against one request. */
export type StatementAnalysis = NonNullable<
  RequestAnalysis["identityAnalysis"]
>["allowStatements"][number];

export function prepareRole(
  role: { name: string; arn: string; policies: { name: string; document: PolicyDocument }[] },
  accountId: string,
): PreparedRole {
  return {
    name: role.name,
    arn: role.arn,
    accountId,
    policies: role.policies.map((p) => ({ name: p.name, policy: p.document })),
    statements: new Map(role.policies.map((p) => [p.name, statementsOf(p.document)])),
  };
}
