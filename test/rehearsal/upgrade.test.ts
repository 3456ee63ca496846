/**
 * The upgrade rehearsal's verdict (rehearsal/upgrade/verdict.ts) and what its deploy refuses
 * (rehearsal/upgrade/deploy.ts), on evidence written here: `npm run rehearse` runs the upgrade
 * itself, with jobs in flight.
 */
import { describe, expect, it } from "vitest";
import { unrehearsedChanges } from "../../rehearsal/upgrade/deploy.ts";
import {
  type UpgradeEvidence,
  upgradeLine,
  upgradeVerdict,
} from "../../rehearsal/upgrade/verdict.ts";
import type { TemplateJson } from "../../rehearsal/template.ts";

/** Three jobs that each succeeded once, one task each, charged 0.25 each. */
function clean(): UpgradeEvidence {
  const ids = ["vidtsk_a", "vidtsk_b", "vidtsk_c"];
  return {
    jobs: ids,
    records: new Map(
      ids.map((id) => [id, { status: "succeeded", idempotencyKey: id, cost: 0.25 }]),
    ),
    terminalEvents: ids.map((jobId) => ({ jobId, status: "succeeded" })),
    tasksByKey: Object.fromEntries(ids.map((id) => [id, 1])),
    ledgerUsed: 0.75,
    endedBeforeDeploy: [],
    denied: [],
  };
}

describe("the upgrade's verdict", () => {
  it("passes jobs that each ended once, with one event, one upstream task and charged once", () => {
    const verdict = upgradeVerdict(clean());
    expect(verdict.ok).toBe(true);
    expect(upgradeLine(verdict)).toBe(
      "upgrade: 3 jobs (0 ended before the deploy), 3 succeeded, 0 lost, 0 ended twice, 0 unannounced, 0 duplicate upstream tasks, 0 charged twice, 0 in flight not succeeded, 0 denied calls, 0 failed executions of succeeded jobs",
    );
  });

  it("fails a job with a second terminal event, a second upstream task, or a second charge", () => {
    const evidence = clean();
    evidence.terminalEvents.push({ jobId: "vidtsk_a", status: "failed" });
    evidence.tasksByKey.vidtsk_b = 2;
    evidence.ledgerUsed = 1;
    const { ok, findings } = upgradeVerdict(evidence);
    expect(ok).toBe(false);
    expect(findings.endedTwice).toEqual(["vidtsk_a: succeeded with events [succeeded, failed]"]);
    expect(findings.duplicate).toEqual(["vidtsk_b: 2 upstream tasks for key vidtsk_b"]);
    expect(findings.charged).toEqual(["the ledger holds 1, the jobs cost 0.75 in all"]);
  });

  it("fails a job the current step refused: failed with invalid_flow_state (the old definition's input renamed), or left running", () => {
    const evidence = clean();
    evidence.records = new Map([
      ...evidence.records,
      ["vidtsk_a", { status: "failed", cost: 0, error: { code: "invalid_flow_state" } }],
      ["vidtsk_b", { status: "running", cost: 0 }],
    ]);
    evidence.terminalEvents = evidence.terminalEvents
      .filter((e) => e.jobId !== "vidtsk_b")
      .map((e) => (e.jobId === "vidtsk_a" ? { ...e, status: "failed" } : e));
    evidence.ledgerUsed = 0.25;
    const { ok, findings } = upgradeVerdict(evidence);
    expect(ok).toBe(false);
    expect(findings.unexpected).toEqual(["vidtsk_a: failed (invalid_flow_state)"]);
    expect(findings.lost).toEqual(["vidtsk_b: still running"]);
  });

  it("fails a job that succeeded while its execution failed after it (a later step refused its input)", () => {
    const evidence = clean();
    evidence.executions = {
      vidtsk_a: "FAILED: ExecutionError: The job ended failed",
      vidtsk_b: "SUCCEEDED",
    };
    const { ok, findings } = upgradeVerdict(evidence);
    expect(ok).toBe(false);
    expect(findings.execution).toEqual([
      "vidtsk_a: succeeded, its execution FAILED: ExecutionError: The job ended failed",
    ]);
  });

  it("leaves a job the release failed before the deploy to the release: not a finding", () => {
    const evidence = clean();
    evidence.records = new Map([
      ...evidence.records,
      ["vidtsk_a", { status: "failed", cost: 0, error: { code: "step_failed" } }],
    ]);
    evidence.terminalEvents = evidence.terminalEvents.map((e) =>
      e.jobId === "vidtsk_a" ? { ...e, status: "failed" } : e,
    );
    evidence.ledgerUsed = 0.5;
    evidence.endedBeforeDeploy = ["vidtsk_a"];
    const verdict = upgradeVerdict(evidence);
    expect(verdict).toMatchObject({ ok: true, succeeded: 2, endedBeforeDeploy: 1 });
  });

  it("fails a job that ended with no event, an unacknowledged submission, and a denied call", () => {
    const evidence = clean();
    evidence.jobs.push(undefined);
    evidence.terminalEvents = evidence.terminalEvents.filter((e) => e.jobId !== "vidtsk_c");
    evidence.denied.push("ReelayRole: dynamodb:PutItem is denied");
    const { findings } = upgradeVerdict(evidence);
    expect(findings.lost).toEqual(["1 submission(s) never acknowledged"]);
    expect(findings.unannounced).toEqual(["vidtsk_c: succeeded with no event"]);
    expect(findings.denied).toEqual(["ReelayRole: dynamodb:PutItem is denied"]);
  });
});

describe("the upgrade's deploy", () => {
  const template = (routeKey: string, code: string): TemplateJson => ({
    Resources: {
      Route: { Type: "AWS::ApiGatewayV2::Route", Properties: { RouteKey: routeKey } },
      Fn: { Type: "AWS::Lambda::Function", Properties: { Code: { S3Key: code } } },
    },
  });

  it("redeploys a function's code and refuses a change it does not rehearse (a route), naming it", () => {
    expect(unrehearsedChanges(template("GET /a", "1.zip"), template("GET /a", "2.zip"))).toEqual(
      [],
    );
    expect(unrehearsedChanges(template("GET /a", "1.zip"), template("GET /b", "2.zip"))).toEqual([
      "Route",
    ]);
  });

  it("lets a dashboard or an alarm change without refusing: nothing in a stage runs them", () => {
    const withBoard = (body: string): TemplateJson => ({
      Resources: {
        ...template("GET /a", "1.zip").Resources,
        Board: { Type: "AWS::CloudWatch::Dashboard", Properties: { DashboardBody: body } },
        Alarm: { Type: "AWS::CloudWatch::Alarm", Properties: { Threshold: body.length } },
      },
    });
    expect(unrehearsedChanges(withBoard("{}"), withBoard('{"widgets":[]}'))).toEqual([]);
  });
});
