/**
 * One IamRequest judged for one role by the maintained evaluator (@cloud-copilot/iam-simulate) over
 * the role's identity policies: allowed or not, why not, and which Allow statements' actions and
 * resources allowed it. The gate writes no policy logic of its own.
 */
import { type RequestAnalysis, runSimulation } from "@cloud-copilot/iam-simulate";
import { entriesOf, type Grant } from "./grants.ts";
import { isRecord, type IamRequest } from "./iam-request.ts";
import type { PreparedRole } from "./prepared-role.ts";
import { denialReason } from "./reasons.ts";

export interface Evaluation {
  allowed: boolean;
  reason?: string;
  /** The grants that allowed the request (none when it is denied). */
  used: Grant[];
}

/**
 * IAM matches a policy's patterns against the request's resource as a literal string, but the
 * evaluator reads a "*" in a request's resource as a pattern too (an S3 key `in*` would then match
 * a grant on `inbox/*`). A look-alike character stands in for it: a pattern's wildcards match it as
 * they match "*", and no pattern's literal text does. A resource that is only "*" (X-Ray's) stays.
 */
function literal(resource: string): string {
  return resource === "*" ? resource : resource.replaceAll("*", "\u2217");
}

export async function evaluate(role: PreparedRole, request: IamRequest): Promise<Evaluation> {
  const simulation = await runSimulation(
    {
      request: {
        principal: role.arn,
        action: request.action,
        resource: { resource: literal(request.resource), accountId: role.accountId },
        contextVariables: request.context,
      },
      identityPolicies: role.policies,
      serviceControlPolicies: [],
      resourceControlPolicies: [],
    },
    {},
  );
  if (simulation.resultType === "error")
    throw new Error(
      `IAM gate: the policies of role ${role.name} do not validate (${JSON.stringify(simulation.errors)})`,
    );
  // A resource of "*" for an action that takes resources is simulated once per pattern the
  // policies name for it; any other once.
  const analyses =
    simulation.resultType === "single"
      ? [simulation.result.analysis]
      : simulation.results.map((result) => result.analysis);
  if (simulation.overallResult !== "Allowed")
    return { allowed: false, reason: denialReason(role, request, analyses[0]), used: [] };
  return { allowed: true, used: analyses.flatMap((analysis) => usedGrants(role, analysis)) };
}

function matched<T extends { matches: boolean }>(explained: T[] | T | undefined): T[] {
  if (explained === undefined) return [];
  return (Array.isArray(explained) ? explained : [explained]).filter((e) => e.matches);
}

/**
 * The (action, resource) pairs of each Allow statement that matched: the actions it lists that
 * matched the request's, times the resources it lists that matched. A NotAction or NotResource
 * statement's pair is its one entry (grants.ts).
 */
function usedGrants(role: PreparedRole, analysis: RequestAnalysis): Grant[] {
  if (analysis.result !== "Allowed") return [];
  return (analysis.identityAnalysis?.allowStatements ?? []).flatMap((allowing) => {
    const statement = allowing.statement.index() - 1;
    const raw = role.statements.get(allowing.policyId)?.[statement];
    if (!isRecord(raw)) return [];
    const explain = allowing.explain;
    const actions =
      explain.actions === undefined
        ? entriesOf(raw, "Action")
        : matched(explain.actions).map((a) => a.action);
    const resources =
      explain.resources === undefined
        ? entriesOf(raw, "Resource")
        : matched(explain.resources).map((r) => r.resource);
    return actions.flatMap((action) =>
      resources.map((resource) => ({ policy: allowing.policyId, statement, action, resource })),
    );
  });
}
