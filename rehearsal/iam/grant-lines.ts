/**
 * Each grant a role's policies make, written as one line that reads the same for every stage and
 * account: `action resource`, then ` if <operator> <key>=<values>` per condition. The resource is
 * the statement's as the template writes it, references named by the resource's logical id
 * without CDK's hash (`Jobs`, `Bucket/outputs/*`), the stage and account as `{stage}` and
 * `{account}`, and an upstream account's key secret as `UPSTREAM_API_KEY[_<ACCOUNT>]` (one account
 * or a pool: the same grant per account). The rehearsal records the lines its calls used
 * (stacks/grants.rehearsed.json) and the infra test compares them with what the template grants.
 */
import { entriesOf, statementsOf, type PolicyDocument } from "./grants.ts";
import { isRecord } from "./iam-request.ts";

type Value = unknown;
type Resources = Record<string, { Type: string; Properties?: Record<string, Value> }>;

/** The stage and account a template was synthesized for: written as placeholders in a line. */
export interface Deployment {
  stage: string;
  account: string;
}

/** One (action, resource) pair of an Allow statement, where it sits and its line. */
export interface GrantLine {
  policy: string;
  statement: number;
  action: string;
  /** The resource as the statement writes it (a reference unresolved). */
  resource: unknown;
  line: string;
}

/** A logical id without CDK's 8-hex-digit hash: `Bucket83908E77` is `Bucket`. */
export function shortLogicalId(logicalId: string): string {
  return logicalId.replace(/[0-9A-F]{8}$/, "");
}

/** A template value as text: a reference is its resource's short id, a join its parts joined. */
function render(value: Value): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(render).join(",");
  if (!isRecord(value)) return JSON.stringify(value);
  const att = value["Fn::GetAtt"];
  if (Array.isArray(att)) return shortLogicalId(String(att[0]));
  const ref = value.Ref;
  if (ref === "AWS::Partition") return "aws";
  if (ref === "AWS::AccountId") return "{account}";
  if (ref === "AWS::Region") return "{region}";
  if (typeof ref === "string") return shortLogicalId(ref);
  const join = value["Fn::Join"];
  if (Array.isArray(join)) return (join[1] as Value[]).map(render).join(String(join[0]));
  return JSON.stringify(value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A resource's text with the deployment's stage and account as placeholders. */
function placeholders(text: string, deployment: Deployment): string {
  return text
    .replaceAll(`:${deployment.account}:`, ":{account}:")
    .replace(new RegExp(`(^|[/:])${escapeRegExp(deployment.stage)}(?=[-/])`, "g"), "$1{stage}")
    .replace(/\/Secret\/UPSTREAM_API_KEY(_[A-Z0-9_]+)?\//, "/Secret/UPSTREAM_API_KEY[_<ACCOUNT>]/");
}

function conditionText(condition: Value): string {
  if (!isRecord(condition)) return "";
  return Object.entries(condition)
    .flatMap(([operator, keys]) =>
      Object.entries(isRecord(keys) ? keys : {}).map(
        ([key, values]) => ` if ${operator} ${key}=${[values].flat().map(render).join("|")}`,
      ),
    )
    .join("");
}

/** One statement's lines, a Deny's beginning `deny ` (the gate lists Allow statements only). */
function statementLines(
  statement: Record<string, Value>,
  deployment: Deployment,
): { action: string; resource: Value; line: string }[] {
  const effect = statement.Effect === "Deny" ? "deny " : "";
  const condition = conditionText(statement.Condition);
  const resources = [statement.Resource ?? []].flat();
  return entriesOf(statement, "Action").flatMap((action) =>
    resources.map((resource) => ({
      action,
      resource,
      line: `${effect}${action} ${placeholders(render(resource), deployment)}${condition}`,
    })),
  );
}

/** The policies attached to a role: each AWS::IAM::Policy naming it, then its inline policies. */
function policiesOf(
  resources: Resources,
  roleLogicalId: string,
): { name: string; document: PolicyDocument }[] {
  const attached = Object.entries(resources)
    .filter(([, r]) => r.Type === "AWS::IAM::Policy")
    .filter(([, r]) =>
      [r.Properties?.Roles ?? []]
        .flat()
        .some((role) => isRecord(role) && role.Ref === roleLogicalId),
    )
    .map(([id, r]) => ({
      name: String(r.Properties?.PolicyName ?? id),
      document: r.Properties?.PolicyDocument as PolicyDocument,
    }));
  const inline = (resources[roleLogicalId]?.Properties?.Policies ?? []) as {
    PolicyName: string;
    PolicyDocument: PolicyDocument;
  }[];
  return [...attached, ...inline.map((p) => ({ name: p.PolicyName, document: p.PolicyDocument }))];
}

/**
 * Every line a role's policies hold, in policy and statement order. With `allowOnly`, the Allow
 * statements' alone, placed as the gate's grants are (policy name, statement index).
 */
export function roleGrantLines(
  resources: Resources,
  roleLogicalId: string,
  deployment: Deployment,
  allowOnly = true,
): GrantLine[] {
  return policiesOf(resources, roleLogicalId).flatMap(({ name, document }) =>
    statementsOf(document).flatMap((statement, index) => {
      if (!isRecord(statement) || (allowOnly && statement.Effect !== "Allow")) return [];
      return statementLines(statement, deployment).map((l) => ({
        policy: name,
        statement: index,
        ...l,
      }));
    }),
  );
}

interface RecordedRole {
  name: string;
  kind: "function" | "machine";
  roleLogicalId: string;
}

/**
 * The roles whose grants are recorded, by the name a record uses: each reelay function's (its
 * short logical id, `SubmitFunction`) and each state machine's (`JobFlow`).
 */
export function recordedRoles(resources: Resources): RecordedRole[] {
  const roleOf = (r: { Properties?: Record<string, Value> }, property: string) => {
    const value = r.Properties?.[property];
    const att = isRecord(value) ? value["Fn::GetAtt"] : undefined;
    return Array.isArray(att) ? String(att[0]) : String(isRecord(value) ? value.Ref : value);
  };
  return Object.entries(resources).flatMap(([id, r]): RecordedRole[] => {
    if (
      r.Type === "AWS::Lambda::Function" &&
      String(r.Properties?.Handler).startsWith("functions/")
    )
      return [{ name: shortLogicalId(id), kind: "function", roleLogicalId: roleOf(r, "Role") }];
    if (r.Type === "AWS::StepFunctions::StateMachine")
      return [{ name: shortLogicalId(id), kind: "machine", roleLogicalId: roleOf(r, "RoleArn") }];
    return [];
  });
}
