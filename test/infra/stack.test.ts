/**
 * The synthesized CloudFormation template of the SST app (stage "test", offline), with cdk-nag's
 * AwsSolutions pack run over it. One synth for the whole file.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@reelay/core/wiring";
import { MAX_DEADLINE_MS, TRANSIENT_ERROR_NAME } from "@reelay/core/domain";
import {
  JOB_FLOW_STEPS,
  LAMBDA_SERVICE_ERRORS,
  LAMBDA_TIMEOUT_ERROR,
  STEP_LAMBDA_TIMEOUT_S,
  STEP_MEMORY_MB,
} from "@reelay/flow/job-flow-names";
import { STEP_HANDLERS } from "../../stacks/ReelayStack.ts";
import { FFMPEG_LAYER_DIR, FFMPEG_PATH } from "../../stacks/job-flow.ts";
import { UPLOADS_EXPIRE_DAYS } from "../../stacks/storage.ts";
import { aslFromResolved } from "@reelay/flow/synth-definition";
import { recordedRoles, roleGrantLines } from "../../rehearsal/iam/grant-lines.ts";
import { explanationOf, readGrantRecord } from "../../rehearsal/iam/record.ts";
import { ResolvedTemplate } from "../../rehearsal/template.ts";
import { EXPLAINED_GRANTS } from "../../stacks/permissions.ts";
import { SIMULATOR_FUNCTION_ID } from "../../stacks/simulator.ts";
import {
  reelayFunctions,
  render,
  resourcesOf,
  shortId,
  synthReelay,
  SYNTH_TIMEOUT_MS,
  type Synth,
} from "./synth.ts";

let synth: Synth;
let asl: { States: Record<string, any>; TimeoutSeconds?: number };
let machine: Record<string, any>;

beforeAll(async () => {
  synth = await synthReelay();
  const machines = Object.values(resourcesOf(synth.template, "AWS::StepFunctions::StateMachine"));
  expect(machines).toHaveLength(1);
  machine = machines[0]!.Properties!;
  asl = aslFromResolved(machine.DefinitionString, (token) => `<${render(token)}>`) as typeof asl;
}, SYNTH_TIMEOUT_MS);

const entries = <T>(record: Record<string, T>) => Object.entries(record);

describe("cdk-nag AwsSolutions", () => {
  it("reports no unsuppressed error anywhere in the stack", () => {
    expect(synth.nagErrors).toEqual([]);
  });
});

describe("job flow state machine", () => {
  it("is a STANDARD machine with an overall timeout longer than the longest job deadline plus a full download", () => {
    expect(machine.StateMachineType).toBe("STANDARD");
    expect(asl.TimeoutSeconds).toBeGreaterThan(
      MAX_DEADLINE_MS / 1000 + STEP_LAMBDA_TIMEOUT_S.download,
    );
  });

  it("logs every execution to a log group with finite retention and has X-Ray tracing on", () => {
    expect(machine.LoggingConfiguration.Level).toBe("ALL");
    const logGroup =
      machine.LoggingConfiguration.Destinations[0].CloudWatchLogsLogGroup.LogGroupArn[
        "Fn::GetAtt"
      ][0];
    expect(resourcesOf(synth.template)[logGroup]!.Properties!.RetentionInDays).toBeGreaterThan(0);
    expect(machine.TracingConfiguration).toEqual({ Enabled: true });
  });

  it("has the five Task states, each with Retry (Lambda service errors and ReelayTransientError), Catch States.ALL last and TimeoutSeconds", () => {
    const tasks = entries(asl.States).filter(([, s]) => s.Type === "Task");
    expect(tasks.map(([name]) => name).sort()).toEqual([
      "Download",
      "Finish",
      "Poll",
      "RecordFailure",
      "Submit",
    ]);
    for (const [name, state] of tasks) {
      const retried = (state.Retry ?? []).flatMap((r: { ErrorEquals: string[] }) => r.ErrorEquals);
      expect(retried, name).toEqual(
        expect.arrayContaining([...LAMBDA_SERVICE_ERRORS, TRANSIENT_ERROR_NAME]),
      );
      expect(state.Catch.at(-1), name).toEqual(
        expect.objectContaining({
          ErrorEquals: ["States.ALL"],
          ResultPath: "$.error",
        }),
      );
      expect(state.TimeoutSeconds, name).toBeGreaterThan(0);
    }
  });

  it("retries only RecordFailure on a Lambda timeout (its conditional write makes a second run harmless; a timed-out Submit could make a second task)", () => {
    const timedOutRetried = (name: string) =>
      (asl.States[name].Retry ?? []).some((r: { ErrorEquals: string[] }) =>
        r.ErrorEquals.includes(LAMBDA_TIMEOUT_ERROR),
      );
    expect(timedOutRetried("RecordFailure")).toBe(true);
    for (const name of ["Submit", "Poll", "Download", "Finish"])
      expect(timedOutRetried(name), name).toBe(false);
  });

  it("catches every step into RecordFailure, and RecordFailure's own Catch ends in the Fail state", () => {
    for (const name of ["Submit", "Poll", "Download", "Finish"])
      expect(asl.States[name].Catch.at(-1).Next).toBe("RecordFailure");
    expect(asl.States.RecordFailure.Catch[0].Next).toBe("Failed");
    expect(asl.States.RecordFailure.Next).toBe("Failed");
    expect(asl.States.Failed.Type).toBe("Fail");
  });

  it("goes from Download (which makes a video's previews) straight to Finish, which ends the execution: no state that only passes a job on", () => {
    expect(asl.States.Download.Next).toBe("Finish");
    expect(asl.States.Finish.End).toBe(true);
    expect(asl.States.Finish.Next).toBeUndefined();
    for (const gone of ["Thumbnail", "IsVideo", "Succeeded"])
      expect(Object.keys(asl.States)).not.toContain(gone);
  });

  it("ends a Submit whose create met a 429 or a refusing account, and a Poll whose task failed and may fall back, at Requeued (a Succeed state): the job waits in the queue with no execution", () => {
    for (const name of ["Submit", "Poll"])
      expect(asl.States[name].Catch[0], name).toEqual({
        ErrorEquals: ["ReelayRequeued"],
        ResultPath: "$.error",
        Next: "Requeued",
      });
    expect(asl.States.Requeued.Type).toBe("Succeed");
    for (const name of ["Download", "Finish", "RecordFailure"])
      expect(asl.States[name].Catch, name).toHaveLength(1);
  });

  it("bounds the poll loop: the only way back to WaitForTask is a Choice rule requiring $.polls < $.maxPolls", () => {
    const intoWait: string[] = [];
    for (const [name, state] of entries(asl.States)) {
      if (state.Next === "WaitForTask") intoWait.push(name);
      for (const rule of state.Choices ?? []) {
        if (rule.Next !== "WaitForTask") continue;
        expect(rule.And).toContainEqual({ Variable: "$.polls", NumericLessThanPath: "$.maxPolls" });
        expect(rule.And).toContainEqual({ Variable: "$.outcome", StringEquals: "running" });
        intoWait.push(`${name} (bounded)`);
      }
    }
    expect(intoWait).toEqual(["Submit", "IsDone (bounded)"]);
    expect(asl.States.WaitForTask.SecondsPath).toBe("$.waitSeconds");
    expect(asl.States.IsDone.Default).toBe("LoopBoundReached");
    expect(asl.States.LoopBoundReached.Next).toBe("RecordFailure");
  });
});

describe("storage", () => {
  const buckets = () => resourcesOf(synth.template, "AWS::S3::Bucket");

  it("blocks all public access and encrypts every bucket", () => {
    expect(Object.keys(buckets())).toHaveLength(2);
    for (const [, bucket] of entries(buckets())) {
      expect(bucket.Properties!.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(
        bucket.Properties!.BucketEncryption.ServerSideEncryptionConfiguration[0]
          .ServerSideEncryptionByDefault.SSEAlgorithm,
      ).toBe("AES256");
    }
  });

  it("denies every request to every bucket that is not over TLS", () => {
    const policies = Object.values(resourcesOf(synth.template, "AWS::S3::BucketPolicy"));
    for (const id of Object.keys(buckets())) {
      const policy = policies.find((p) => p.Properties!.Bucket.Ref === id);
      expect(policy, id).toBeDefined();
      expect(policy!.Properties!.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({
          Effect: "Deny",
          Action: "s3:*",
          Condition: { Bool: { "aws:SecureTransport": "false" } },
        }),
      );
    }
  });

  it("aborts incomplete multipart uploads after one day and logs access to the data bucket", () => {
    const data =
      buckets()[Object.keys(buckets()).find((id) => shortId(id) === "Bucket")!]!.Properties!;
    expect(data.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({
        Status: "Enabled",
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
      }),
    );
    expect(render(data.LoggingConfiguration.DestinationBucketName)).toBe("AccessLogs");
  });

  it("expires uploads and image-edit references under uploads/ after UPLOADS_EXPIRE_DAYS (REELAY_UPLOAD_RETENTION_DAYS's default), and nothing else but outputs by their retention tag (retention.test.ts)", () => {
    const data =
      buckets()[Object.keys(buckets()).find((id) => shortId(id) === "Bucket")!]!.Properties!;
    const expiring = (data.LifecycleConfiguration.Rules as Record<string, unknown>[]).filter(
      (rule) => "ExpirationInDays" in rule && !("TagFilters" in rule),
    );
    expect(expiring).toEqual([
      expect.objectContaining({
        Status: "Enabled",
        Prefix: "uploads/",
        ExpirationInDays: UPLOADS_EXPIRE_DAYS,
      }),
    ]);
  });

  it("gives the jobs table point-in-time recovery, key pk and the gsi1 listing index", () => {
    const tables = Object.values(resourcesOf(synth.template, "AWS::DynamoDB::Table"));
    expect(tables).toHaveLength(1);
    const table = tables[0]!.Properties!;
    expect(table.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.KeySchema).toEqual([{ AttributeName: "pk", KeyType: "HASH" }]);
    expect(table.GlobalSecondaryIndexes[0].IndexName).toBe("gsi1");
  });

  it("creates the event bus and notifies the drop function of objects created under inbox/ only", () => {
    expect(
      Object.values(resourcesOf(synth.template, "AWS::Events::EventBus"))[0]!.Properties!.Name,
    ).toBe("reelay-test");
    const notification = Object.values(
      resourcesOf(synth.template, "Custom::S3BucketNotifications"),
    )[0]!.Properties!;
    const configs = notification.NotificationConfiguration.LambdaFunctionConfigurations;
    expect(configs).toHaveLength(1);
    expect(configs[0].Events).toEqual(["s3:ObjectCreated:*"]);
    expect(render(configs[0].LambdaFunctionArn)).toBe("DropFunction");
    expect(configs[0].Filter.Key.FilterRules).toEqual([{ Name: "prefix", Value: "inbox/" }]);
  });

  it("sends reelay's terminal and batch detail-types on the bus, and nothing else, to the webhook function, which Lambda retries until its deliveries are recorded", () => {
    const rules = Object.values(resourcesOf(synth.template, "AWS::Events::Rule"))
      .map((r) => r.Properties!)
      .filter((r) => r.EventPattern !== undefined);
    expect(rules).toHaveLength(1);
    const rule = rules[0]!;
    expect(render(rule.EventBusName)).toBe("Bus");
    expect(rule.EventPattern).toEqual({
      source: ["reelay"],
      "detail-type": [
        "Generation Succeeded",
        "Generation Failed",
        "Generation Cancelled",
        "Batch Completed",
      ],
    });
    expect(rule.Targets.map((t: { Arn: unknown }) => render(t.Arn))).toEqual(["WebhookFunction"]);
    const invokeConfigs = Object.values(
      resourcesOf(synth.template, "AWS::Lambda::EventInvokeConfig"),
    ).map((r) => [render(r.Properties!.FunctionName), r.Properties!.MaximumRetryAttempts]);
    expect(invokeConfigs).toContainEqual(["WebhookFunction", 2]);
    expect(invokeConfigs).toContainEqual(["WebhookSweepFunction", 0]);
  });

  it("runs the webhook sweep every minute, with the schedule the deployment was configured with", () => {
    const sweeps = Object.values(resourcesOf(synth.template, "AWS::Events::Rule"))
      .map((r) => r.Properties!)
      .filter((r) => r.ScheduleExpression !== undefined)
      .filter((r) =>
        r.Targets.some((t: { Arn: unknown }) => render(t.Arn) === "WebhookSweepFunction"),
      );
    expect(sweeps.map((r) => r.ScheduleExpression)).toEqual(["rate(1 minute)"]);
    const sweep = entries(reelayFunctions(synth.template)).find(
      ([id]) => shortId(id) === "WebhookSweepFunction",
    )?.[1].Properties;
    expect(sweep?.Handler).toBe("functions/webhook.sweep");
    expect(sweep?.Environment.Variables.REELAY_WEBHOOK_SCHEDULE).toBe(
      "0,5,300,1800,7200,18000,36000,36000",
    );
  });
});

describe("HTTP API", () => {
  it("routes GET /healthz, GET /openapi.json and every /v1 path to the one API function (which checks the Bearer key), and /mcp to the MCP function", () => {
    const integrations = resourcesOf(synth.template, "AWS::ApiGatewayV2::Integration");
    const routes = Object.values(resourcesOf(synth.template, "AWS::ApiGatewayV2::Route")).map(
      (r) => {
        const target = render(r.Properties!.Target).replace(/^integrations\//, "");
        const integration =
          integrations[
            Object.keys(integrations).find((id) => shortId(id) === target || id === target)!
          ];
        return [r.Properties!.RouteKey, render(integration?.Properties?.IntegrationUri)];
      },
    );
    expect(Object.fromEntries(routes)).toEqual({
      "GET /healthz": "ApiFunction",
      "GET /openapi.json": "ApiFunction",
      "ANY /v1/{proxy+}": "ApiFunction",
      "POST /mcp": "McpFunction",
      "GET /mcp": "McpFunction",
      "DELETE /mcp": "McpFunction",
    });
  });

  it("gives the MCP function the API's own URL, where its tools' calls go with the caller's key", () => {
    const [, mcp] = entries(reelayFunctions(synth.template)).find(
      ([id]) => shortId(id) === "McpFunction",
    )!;
    expect(render(mcp.Properties!.Environment.Variables.REELAY_API_URL)).toMatch(/Api/);
  });
});

describe("functions", () => {
  it("are the ten reelay handlers and the webhook sweep", () => {
    const handlers = Object.values(reelayFunctions(synth.template)).map(
      (f) => f.Properties!.Handler,
    );
    expect(handlers.sort()).toEqual(
      [
        ...[
          "api",
          "dispatch",
          "download",
          "drop",
          "fail",
          "finish",
          "mcp",
          "poll",
          "submit",
          "webhook",
        ].map((name) => `functions/${name}.handler`),
        "functions/webhook.sweep",
      ].sort(),
    );
  });

  it("run Node 22 on arm64 (Download on x86_64, as its ffmpeg is) with a finite log retention, each", () => {
    const retention = Object.values(resourcesOf(synth.template, "Custom::LogRetention")).map(
      (r) => [render(r.Properties!.LogGroupName), r.Properties!.RetentionInDays],
    );
    for (const [id, fn] of entries(reelayFunctions(synth.template))) {
      expect(fn.Properties!.Runtime, id).toBe("nodejs22.x");
      expect(fn.Properties!.Architectures, id).toEqual([
        shortId(id) === "DownloadFunction" ? "x86_64" : "arm64",
      ]);
      expect(retention, id).toContainEqual([`/aws/lambda/${shortId(id)}`, expect.any(Number)]);
    }
    for (const [, days] of retention) expect(days).toBeGreaterThan(0);
    for (const [id, group] of entries(resourcesOf(synth.template, "AWS::Logs::LogGroup"))) {
      expect(group.Properties!.RetentionInDays, id).toBeGreaterThan(0);
    }
  });

  it("give the Download function alone ffmpeg: a layer of the npm package @ffmpeg-installer/linux-x64 (an x86-64 ELF binary that runs) at /opt/ffmpeg, named by REELAY_FFMPEG_PATH", () => {
    const layers = resourcesOf(synth.template, "AWS::Lambda::LayerVersion");
    const [layerId, layer] = entries(layers).find(([id]) => id.startsWith("FfmpegLayer")) ?? [];
    expect(layer?.Properties?.CompatibleArchitectures).toEqual(["x86_64"]);
    const withFfmpeg = entries(reelayFunctions(synth.template)).filter(
      ([, fn]) =>
        "REELAY_FFMPEG_PATH" in fn.Properties!.Environment.Variables ||
        JSON.stringify(fn.Properties!.Layers ?? []).includes(String(layerId)),
    );
    expect(withFfmpeg.map(([id]) => shortId(id))).toEqual(["DownloadFunction"]);
    const [, downloadFn] = withFfmpeg[0] ?? [];
    expect(downloadFn?.Properties?.Layers).toEqual([{ Ref: layerId }]);
    expect(downloadFn?.Properties?.Environment.Variables.REELAY_FFMPEG_PATH).toBe(FFMPEG_PATH);
    // The layer's folder as Lambda mounts it under /opt: the binary at its root.
    expect(FFMPEG_PATH).toBe("/opt/ffmpeg");
    const binary = join(FFMPEG_LAYER_DIR, "ffmpeg");
    const elf = readFileSync(binary).subarray(0, 20);
    expect(elf.subarray(0, 4).toString("latin1")).toBe("\x7fELF");
    expect(elf.readUInt16LE(18), "e_machine x86-64").toBe(0x3e);
    expect(statSync(binary).mode & 0o111).not.toBe(0);
    expect(execFileSync(binary, ["-version"]).toString()).toMatch(/^ffmpeg version/);
  });

  it("give each step function the memory STEP_MEMORY_MB names (Poll 128 MB, Download 1769 MB) and every other function 512 MB", () => {
    const stepOf = new Map(JOB_FLOW_STEPS.map((step) => [STEP_HANDLERS[step], step]));
    const memory = Object.fromEntries(
      entries(reelayFunctions(synth.template)).map(([id, fn]) => [
        shortId(id),
        fn.Properties!.MemorySize,
      ]),
    );
    const expected = Object.fromEntries(
      entries(reelayFunctions(synth.template)).map(([id, fn]) => {
        const step = stepOf.get(fn.Properties!.Handler);
        return [shortId(id), step === undefined ? 512 : STEP_MEMORY_MB[step]];
      }),
    );
    expect(memory).toEqual(expected);
    expect(memory.PollFunction).toBe(128);
    // ffmpeg decodes each video in Download: one vCPU, as the Thumbnail function had.
    expect(memory.DownloadFunction).toBe(1769);
  });

  it("get the REELAY_* settings (REELAY_MAX_OUTPUT_BYTES and REELAY_LOG_LEVEL too); only dispatch (starts) and api (cancel stops) get the state machine ARN", () => {
    for (const [id, fn] of entries(reelayFunctions(synth.template))) {
      const env = fn.Properties!.Environment.Variables;
      expect(Object.keys(env), id).toEqual(
        expect.arrayContaining([
          "REELAY_TABLE_NAME",
          "REELAY_BUCKET_NAME",
          "REELAY_EVENT_BUS_NAME",
          "REELAY_UPSTREAM_URL",
          "REELAY_DEFAULT_MODEL",
          "REELAY_DISPATCH_FUNCTION",
          "REELAY_QUEUE_TIMEOUT_S",
        ]),
      );
      expect(env.REELAY_DISPATCH_FUNCTION, id).toBe("test-reelay-dispatch");
      // The deployer's limit, or the default: what a function's loadConfig then finds.
      expect(env.REELAY_MAX_OUTPUT_BYTES, id).toBe(String(loadConfig().maxOutputBytes));
      expect(env.REELAY_LOG_LEVEL, id).toBe(loadConfig().log.level);
      // One account: no pool settings (test/infra/pool.test.ts has the pool's).
      for (const name of ["REELAY_UPSTREAMS", "REELAY_ROUTING", "REELAY_FALLBACK_ATTEMPTS"])
        expect(name in env, `${id} ${name}`).toBe(false);
      const starts = ["ApiFunction", "DispatchFunction"].includes(shortId(id));
      expect("REELAY_STATE_MACHINE_ARN" in env, id).toBe(starts);
      if (starts) expect(render(env.REELAY_STATE_MACHINE_ARN)).toBe("JobFlow");
    }
  });

  it("never carry the upstream key in their environment: only SST's fetch-from-SSM marker, on the three upstream callers", () => {
    const bound: string[] = [];
    for (const [id, fn] of entries(reelayFunctions(synth.template))) {
      const env = fn.Properties!.Environment.Variables as Record<string, unknown>;
      const markers = ["SST_Secret_value_UPSTREAM_API_KEY", "SST_Secret_value_REELAY_API_KEY"];
      expect(
        Object.keys(env).filter((k) => /API_KEY/i.test(k) && !markers.includes(k)),
        id,
      ).toEqual([]);
      if ("SST_Secret_value_REELAY_API_KEY" in env) {
        expect(env.SST_Secret_value_REELAY_API_KEY).toBe("__FETCH_FROM_SSM__");
        expect(shortId(id), "only the API function holds reelay's own key").toBe("ApiFunction");
      }
      if ("SST_Secret_value_UPSTREAM_API_KEY" in env) {
        expect(env.SST_Secret_value_UPSTREAM_API_KEY).toBe("__FETCH_FROM_SSM__");
        bound.push(shortId(id));
      }
    }
    expect(bound.sort()).toEqual(["DownloadFunction", "PollFunction", "SubmitFunction"]);
  });
});

describe("IAM", () => {
  type Statement = { Effect: string; Action: string | string[] };
  const statements = (): [string, Statement][] =>
    entries(resourcesOf(synth.template, "AWS::IAM::Policy")).flatMap(([id, p]) =>
      (p.Properties!.PolicyDocument.Statement as Statement[]).map((s): [string, Statement] => [
        id,
        s,
      ]),
    );
  const resources = () => synth.template.toJSON().Resources;
  /** This template's stage and account, written as `{stage}` and `{account}` in a grant's line. */
  const TEST_DEPLOYMENT = { stage: "test", account: "my-account" };
  /** Each reelay function's role and the state machine's, with every line its policies hold. */
  const roles = () =>
    recordedRoles(resources()).map((role) => ({
      ...role,
      lines: roleGrantLines(resources(), role.roleLogicalId, TEST_DEPLOYMENT, false).map(
        (l) => l.line,
      ),
    }));

  it("has no wildcard action (no '*', no 'service:*') in any policy", () => {
    const actions = statements().flatMap(([, s]) => [s.Action].flat());
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.filter((a) => a.includes("*"))).toEqual([]);
  });

  it("grants each role exactly what the full rehearsal recorded it using (stacks/grants.rehearsed.json) and the unused grants stacks/permissions.ts explains: no grant beyond them, none of them missing", async () => {
    const record = await readGrantRecord();
    // The deployed simulator's role is recorded (the rehearsal deploys it) but is in a trial
    // stage's template only: simulator.test.ts checks it there.
    const recordedNames = Object.keys(record).filter((name) => name !== SIMULATOR_FUNCTION_ID);
    expect(recordedNames.sort()).toEqual(
      roles()
        .map((r) => r.name)
        .sort(),
    );
    for (const role of roles()) {
      const allowed = role.lines.filter((line) => !line.startsWith("deny "));
      const recorded = record[role.name] ?? [];
      const unaccounted = allowed.filter(
        (line) => !recorded.includes(line) && explanationOf(role, line) === undefined,
      );
      expect(unaccounted, `${role.name}: granted, never used, not explained`).toEqual([]);
      expect(
        recorded.filter((line) => !allowed.includes(line)),
        `${role.name}: used in the rehearsal, no longer granted`,
      ).toEqual([]);
    }
  });

  it("explains only grants the template makes: each of EXPLAINED_GRANTS names at least one", () => {
    const all = roles();
    for (const explained of EXPLAINED_GRANTS)
      for (const grant of explained.grants) {
        const named = all.filter(
          (role) =>
            (explained.roles === "every function"
              ? role.kind === "function"
              : explained.roles.includes(role.name)) &&
            role.lines.some((line) =>
              typeof grant === "string" ? line === grant : grant.test(line),
            ),
        );
        expect(named.length, `${String(grant)}: ${explained.reason}`).toBeGreaterThan(0);
      }
  });

  it("keeps the audit log append-only in IAM: the API may never update or delete an aud_* item, whatever it is granted", () => {
    const api = roles().find((r) => r.name === "ApiFunction")!;
    expect(api.lines.filter((line) => line.startsWith("deny ")).sort()).toEqual([
      "deny dynamodb:DeleteItem Jobs if ForAnyValue:StringLike dynamodb:LeadingKeys=aud_*",
      "deny dynamodb:UpdateItem Jobs if ForAnyValue:StringLike dynamodb:LeadingKeys=aud_*",
    ]);
    expect(roles().flatMap((r) => r.lines.filter((line) => line.startsWith("deny ")))).toHaveLength(
      2,
    );
  });

  it("lets the job flow's role invoke its five step functions (and their versions) and nothing else", () => {
    const machineRole = ResolvedTemplate.logicalIdOf(machine.RoleArn);
    const invokes = roleGrantLines(resources(), machineRole, TEST_DEPLOYMENT)
      .filter((g) => g.action.startsWith("lambda:"))
      .map((g) => g.line)
      .sort();
    const stepFns = [
      "DownloadFunction",
      "FinishFunction",
      "PollFunction",
      "RecordFailureFunction",
      "SubmitFunction",
    ];
    expect(invokes).toEqual(
      stepFns
        .flatMap((fn) => [`lambda:InvokeFunction ${fn}`, `lambda:InvokeFunction ${fn}:*`])
        .sort(),
    );
  });
});
