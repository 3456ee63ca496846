/**
 * The rehearsal's report drawn from what it observed, without a stage: the service limits a
 * function or a payload came near or passed, and the grants judged (an unused grant nothing
 * explains fails a full run only; a record other than the committed one fails it too), with the
 * grants written as lines that read the same for every stage and account.
 */
import { describe, expect, it } from "vitest";
import { StepFunctions } from "../../rehearsal/aws/states.ts";
import { IamGate } from "../../rehearsal/iam/gate.ts";
import { recordedRoles, roleGrantLines } from "../../rehearsal/iam/grant-lines.ts";
import { explanationOf, recordDifferences, recordOf } from "../../rehearsal/iam/record.ts";
import { type Observed, reportFrom, summaryLines } from "../../rehearsal/report.ts";
import { ResolvedTemplate } from "../../rehearsal/template.ts";

type FunctionReport = Observed["functions"][number];

function fn(overrides: Partial<FunctionReport> = {}): FunctionReport {
  return {
    name: "rehearsal-reelay-ApiFunction",
    logicalId: "ApiFunctionCE271BD4",
    invocations: 3,
    coldStarts: 1,
    errors: 0,
    timeouts: 0,
    initErrors: [],
    peakMemoryMb: 100,
    memoryMb: 512,
    longestMs: 1000,
    timeoutS: 30,
    billedMs: 1200,
    logBytes: 500,
    environmentBytes: 1000,
    maxResponseBytes: 2000,
    calls: [],
    denied: [],
    unusedGrants: [],
    explainedGrants: [],
    ...overrides,
  };
}

function observed(overrides: Partial<Observed> = {}): Observed {
  return {
    startedAt: "2026-11-28T21:00:00.000Z",
    durationS: 60,
    scenarios: [{ name: "a video job", ok: true, ms: 5000 }],
    functions: [fn()],
    grants: { checked: false, roles: [], recordDifferences: [], recordWritten: false },
    payloads: {
      state: { bytes: 4000, where: "Poll's output in vidtsk_1" },
      eventEntry: { bytes: 900, where: 'a "Generation Succeeded" entry' },
    },
    refusals: [],
    settingsNotPassed: [],
    ...overrides,
  };
}

const MB = 1024 * 1024;

describe("the limits a rehearsal flags", () => {
  it("passes a run whose payloads and functions stay under 80% of every limit, and flags none", () => {
    const report = reportFrom(observed());
    expect(report.limits).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it("flags a state payload over 256 KB, an EventBridge entry over 256 KB and a response over 6 MB as passed, and fails the run", () => {
    const report = reportFrom(
      observed({
        functions: [fn({ maxResponseBytes: 6 * MB + 101 })],
        payloads: {
          state: { bytes: 256 * 1024 + 1, where: "Download's output in vidtsk_9" },
          eventEntry: { bytes: 300 * 1024, where: 'a "Batch Completed" entry' },
        },
      }),
    );
    expect(report.limits).toEqual([
      {
        passed: true,
        what: expect.stringMatching(/ApiFunction: largest response .* of Lambda's 6 MB passed$/),
      },
      {
        passed: true,
        what: expect.stringMatching(
          /^Step Functions: largest state payload 256\.0 KB \(Download's output in vidtsk_9\) of 256 KB passed$/,
        ),
      },
      {
        passed: true,
        what: expect.stringMatching(
          /^EventBridge: largest entry 300\.0 KB \(a "Batch Completed" entry\) of 256 KB passed$/,
        ),
      },
    ]);
    expect(report.ok).toBe(false);
    expect(summaryLines(report)).toContainEqual(
      expect.stringMatching(/^LIMIT PASSED: Step Functions/),
    );
  });

  it("flags payloads, a response and an environment past 80% of their limits as near, and still passes", () => {
    const report = reportFrom(
      observed({
        functions: [fn({ maxResponseBytes: 5.5 * MB, environmentBytes: 3500 })],
        payloads: {
          state: { bytes: 210 * 1024, where: "Submit's input in vidtsk_2" },
          eventEntry: { bytes: 220 * 1024, where: 'a "Generation Failed" entry' },
        },
      }),
    );
    expect(report.limits.map((l) => [l.passed, l.what.replace(/:.*/, "")])).toEqual([
      [false, "rehearsal-reelay-ApiFunction"],
      [false, "rehearsal-reelay-ApiFunction"],
      [false, "Step Functions"],
      [false, "EventBridge"],
    ]);
    expect(report.limits.every((l) => l.what.endsWith(" near"))).toBe(true);
    expect(report.ok).toBe(true);
  });

  it("fails on memory past MemorySize and on a run that timed out", () => {
    const report = reportFrom(observed({ functions: [fn({ peakMemoryMb: 600, timeouts: 1 })] }));
    expect(report.limits.filter((l) => l.passed).map((l) => l.what)).toEqual([
      "rehearsal-reelay-ApiFunction: peak memory 600 MB of MemorySize 512 MB passed",
      "rehearsal-reelay-ApiFunction: 1 run(s) timed out",
    ]);
    expect(report.ok).toBe(false);
  });
});

describe("the grants a rehearsal judges", () => {
  const unused = {
    role: "DropFunction",
    kind: "function" as const,
    used: ["s3:GetObject Bucket/inbox/*"],
    unexplained: ["s3:DeleteObject Bucket/rejected/*"],
    explained: [{ grant: "xray:PutTraceSegments *", reason: "the X-Ray daemon sends them" }],
  };

  it("fails a full run on an unused grant nothing explains, and names it; a partial run only lists it", () => {
    const full = reportFrom(
      observed({
        grants: { checked: true, roles: [unused], recordDifferences: [], recordWritten: false },
      }),
    );
    expect(full.ok).toBe(false);
    expect(summaryLines(full)).toContain(
      "UNUSED GRANT DropFunction: s3:DeleteObject Bucket/rejected/*",
    );
    expect(summaryLines(full)).toContain("  - the X-Ray daemon sends them");
    const partial = reportFrom(
      observed({
        grants: { checked: false, roles: [unused], recordDifferences: [], recordWritten: false },
      }),
    );
    expect(partial.ok).toBe(true);
  });

  it("fails a full run whose grants differ from the committed record, unless it wrote the record", () => {
    const roles = [{ ...unused, unexplained: [] }];
    const differences = recordDifferences(
      { DropFunction: ["s3:GetObject Bucket/inbox/*", "s3:PutObject Bucket/rejected/*"] },
      recordOf(roles),
    );
    expect(differences).toEqual(["- DropFunction: s3:PutObject Bucket/rejected/*"]);
    const grants = { checked: true, roles, recordDifferences: differences, recordWritten: false };
    expect(reportFrom(observed({ grants })).ok).toBe(false);
    expect(reportFrom(observed({ grants: { ...grants, recordWritten: true } })).ok).toBe(true);
  });

  it("keeps explained lines out of the record even when a run used them, so a rare path does not change it", () => {
    const explained = [
      { roles: "every function" as const, grants: [/^xray:/], reason: "the daemon" },
      { roles: ["JobFlow"], grants: ["logs:GetLogDelivery *"], reason: "Step Functions' logs" },
    ];
    expect(
      explanationOf(
        { name: "ApiFunction", kind: "function" },
        "xray:PutTraceSegments *",
        explained,
      ),
    ).toBe("the daemon");
    expect(
      explanationOf({ name: "JobFlow", kind: "machine" }, "xray:PutTraceSegments *", explained),
    ).toBeUndefined();
    expect(
      explanationOf({ name: "JobFlow", kind: "machine" }, "logs:GetLogDelivery *", explained),
    ).toBe("Step Functions' logs");
    const record = recordOf([
      {
        role: "ApiFunction",
        kind: "function",
        used: ["dynamodb:GetItem Jobs", "xray:PutTraceSegments *"],
        unexplained: [],
        explained: [],
      },
    ]);
    expect(record).toEqual({ ApiFunction: ["dynamodb:GetItem Jobs"] });
  });
});

describe("a grant's line", () => {
  const template = (stage: string, account: string) => ({
    Fn: {
      Type: "AWS::Lambda::Function",
      Properties: {
        Handler: "functions/submit.handler",
        Role: { "Fn::GetAtt": ["FnRoleAB12CD34", "Arn"] },
      },
    },
    FnRoleAB12CD34: { Type: "AWS::IAM::Role", Properties: {} },
    Policy: {
      Type: "AWS::IAM::Policy",
      Properties: {
        PolicyName: "P",
        Roles: [{ Ref: "FnRoleAB12CD34" }],
        PolicyDocument: {
          Statement: [
            {
              Effect: "Allow",
              Action: "ssm:GetParameters",
              Resource: {
                "Fn::Join": [
                  "",
                  [
                    "arn:",
                    { Ref: "AWS::Partition" },
                    `:ssm:us-east-1:${account}:parameter/sst/reelay/${stage}/Secret/UPSTREAM_API_KEY_BETA_EU/value`,
                  ],
                ],
              },
            },
            {
              Effect: "Allow",
              Action: ["dynamodb:GetItem"],
              Resource: { "Fn::GetAtt": ["JobsDF1CC2D4", "Arn"] },
              Condition: {
                "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["vidtsk_*", "fp#*"] },
              },
            },
          ],
        },
      },
    },
  });

  it("reads the same for every stage and account, and for one upstream key or a pool account's", () => {
    const lines = (stage: string, account: string) =>
      roleGrantLines(template(stage, account), "FnRoleAB12CD34", { stage, account }).map(
        (l) => l.line,
      );
    expect(lines("rehearsal", "123456789012")).toEqual([
      "ssm:GetParameters arn:aws:ssm:us-east-1:{account}:parameter/sst/reelay/{stage}/Secret/UPSTREAM_API_KEY[_<ACCOUNT>]/value",
      "dynamodb:GetItem Jobs if ForAllValues:StringLike dynamodb:LeadingKeys=vidtsk_*|fp#*",
    ]);
    expect(lines("test", "my-account")).toEqual(lines("rehearsal", "123456789012"));
    expect(recordedRoles(template("test", "x"))).toEqual([
      { name: "Fn", kind: "function", roleLogicalId: "FnRoleAB12CD34" },
    ]);
  });
});

describe("the largest state payload", () => {
  it("is measured on every state's input and output as Step Functions counts it (UTF-8 JSON), and named", async () => {
    const padding = "é".repeat(150 * 1024);
    const definition = {
      StartAt: "Big",
      States: { Big: { Type: "Pass", Result: { padding }, End: true } },
    };
    const rt = new ResolvedTemplate(
      {
        Resources: {
          Machine: {
            Type: "AWS::StepFunctions::StateMachine",
            Properties: {
              RoleArn: { "Fn::GetAtt": ["MachineRole", "Arn"] },
              DefinitionString: JSON.stringify(definition),
            },
          },
          MachineRole: { Type: "AWS::IAM::Role" },
        },
      },
      { partition: "aws", region: "us-east-1", accountId: "123456789012", stackName: "s" },
    );
    const states = new StepFunctions(rt, {
      gate: new IamGate(new Map(), {
        partition: "aws",
        region: "us-east-1",
        accountId: "123456789012",
        partitionKeyOf: () => undefined,
      }),
      invoke: async () => ({ ok: true, payload: {} }),
      accessKeyOfRole: () => "key",
      waitScale: 0,
    });
    states.start({ stateMachineArn: rt.arnOf("Machine"), name: "job-1", input: "{}" });
    await states.idle();
    // Each "é" is two bytes of UTF-8; {"padding":"..."} adds 14.
    expect(states.largestPayload()).toEqual({
      bytes: 2 * 150 * 1024 + 14,
      where: "Big's output in job-1",
    });
  });
});
