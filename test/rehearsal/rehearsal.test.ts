/**
 * The rehearsal in short (npm run rehearse runs it whole): the synthesized template run on this
 * machine, each function from its bundle under Node 22 with its role's credentials, every AWS call
 * checked against that role's policy. A clean template passes with no denied call; a template with
 * one grant taken out, or one setting forgotten, fails for that reason and says so.
 */
import { describe, expect, it } from "vitest";
import { type Report, summaryLines } from "../../rehearsal/report.ts";
import { rehearse } from "../../rehearsal/run.ts";
import { JOB_SCENARIOS } from "../../rehearsal/scenarios/jobs.ts";
import type { Scenario } from "../../rehearsal/scenarios/support.ts";
import type { Resource, TemplateJson } from "../../rehearsal/template.ts";

/** A synth (when the code changed) bundles every function, then each stage starts 12 functions. */
const TIMEOUT_MS = 400_000;

function scenario(prefix: string): Scenario {
  const found = JOB_SCENARIOS.find((s) => s.name.startsWith(prefix));
  if (found === undefined) throw new Error(`No scenario "${prefix}".`);
  return found;
}

function fn(report: Report, logicalIdPrefix: string) {
  const found = report.functions.find((f) => f.logicalId.startsWith(logicalIdPrefix));
  if (found === undefined) throw new Error(`No function ${logicalIdPrefix} in the report.`);
  return found;
}

function resourceOf(template: TemplateJson, prefix: string, type: string): Resource {
  const entry = Object.entries(template.Resources).find(
    ([id, r]) => id.startsWith(prefix) && r.Type === type,
  );
  if (entry === undefined) throw new Error(`No ${type} ${prefix}.`);
  return entry[1];
}

type Statement = { Action: string | string[]; Effect: string };

/** Takes one action out of every statement of a function's role policy that grants it. */
function withoutAction(functionPrefix: string, action: string) {
  return (template: TemplateJson) => {
    const policy = resourceOf(
      template,
      `${functionPrefix}ServiceRoleDefaultPolicy`,
      "AWS::IAM::Policy",
    );
    const document = policy.Properties?.PolicyDocument as { Statement: Statement[] };
    for (const statement of document.Statement)
      if (Array.isArray(statement.Action))
        statement.Action = statement.Action.filter((a) => a !== action);
  };
}

function withoutSetting(functionPrefix: string, name: string) {
  return (template: TemplateJson) => {
    const resource = resourceOf(template, functionPrefix, "AWS::Lambda::Function");
    const environment = resource.Properties?.Environment as { Variables: Record<string, unknown> };
    delete environment.Variables[name];
  };
}

describe("the deploy rehearsal", () => {
  it(
    "the template as synthesized: a video, an image, a cancel and a video on the deployed simulator end as on the local stack, with 0 denied calls and no function failing to start",
    async () => {
      const report = await rehearse({ scenarios: JOB_SCENARIOS });
      expect(report.scenarios.filter((s) => !s.ok)).toEqual([]);
      expect(report.functions.flatMap((f) => f.denied)).toEqual([]);
      expect(report.functions.flatMap((f) => f.initErrors)).toEqual([]);
      expect(report.refusals).toEqual([]);
      expect(report.ok).toBe(true);
      // The calls were made with each function's own role and checked: Finish wrote the manifest.
      expect(fn(report, "FinishFunction").calls.map((c) => c.operation)).toContain(
        "s3:PutObject (s3:PutObjectTagging)",
      );
      // The deployed simulator ran from its bundle and read its key with its own role.
      expect(fn(report, "SimulatorFunction").calls.map((c) => c.operation)).toContain(
        "ssm:GetParameters (ssm:GetParameters)",
      );
      // ... which used the grant's line as stacks/grants.rehearsed.json records it; a short run
      // lists the grants it did not use but does not judge them (npm run rehearse does).
      expect(report.grants.roles.find((r) => r.role === "FinishFunction")?.used).toContain(
        "s3:PutObjectTagging Bucket/outputs/*/job.json",
      );
      expect(report.grants.checked).toBe(false);
    },
    TIMEOUT_MS,
  );

  it(
    "a template with Finish's manifest s3:PutObjectTagging taken out and REELAY_TABLE_NAME left out of the webhook function's environment: the rehearsal fails naming the function, the call and the missing action, and the cold start that failed with the setting's name",
    async () => {
      // Both faults in one stage (one stage's start is most of this file's time): the video's end
      // reaches Finish, and its event reaches the webhook function through the bus.
      const report = await rehearse({
        scenarios: [scenario("a video job")],
        stage: {
          mutateTemplate: (template) => {
            withoutAction("FinishFunction", "s3:PutObjectTagging")(template);
            withoutSetting("WebhookFunction", "REELAY_TABLE_NAME")(template);
          },
        },
      });
      expect(report.ok).toBe(false);
      const denied = fn(report, "FinishFunction").denied;
      expect(denied.map((d) => d.operation)).toContain("s3:PutObject (s3:PutObjectTagging)");
      expect(denied.find((d) => d.operation.includes("s3:PutObjectTagging"))?.reason).toMatch(
        /s3:PutObjectTagging on arn:aws:s3:::[^ ]+\/outputs\/[^ ]+\/job\.json/,
      );
      expect(fn(report, "WebhookFunction").initErrors.join("\n")).toMatch(/REELAY_TABLE_NAME/);
      expect(summaryLines(report).join("\n")).toMatch(
        /COLD START FAILED [^\n]*WebhookFunction[^\n]*REELAY_TABLE_NAME/,
      );
    },
    TIMEOUT_MS,
  );
});
