/**
 * cdk-nag AwsSolutions findings that do not fit, each scoped to the construct it is about and
 * with the reason written down. Everything else is fixed in the stack itself.
 */
import type { Stack } from "aws-cdk-lib";
import type { IConstruct } from "constructs";
import { NagSuppressions, type NagPackSuppression } from "cdk-nag";

const BASIC_EXECUTION_ROLE: NagPackSuppression = {
  id: "AwsSolutions-IAM4",
  reason:
    "AWSLambdaBasicExecutionRole grants only logs:CreateLogGroup/CreateLogStream/PutLogEvents for the function's own logs; a hand-written copy would be the same three actions.",
  appliesTo: [
    "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
  ],
};

const NODE_22: NagPackSuppression = {
  id: "AwsSolutions-L1",
  reason:
    "Node 22 is the runtime reelay is built and tested for (design choice); moving to a newer one is a deliberate upgrade with its own test run.",
};

function resourceStar(reason: string): NagPackSuppression {
  return { id: "AwsSolutions-IAM5", reason, appliesTo: ["Resource::*"] };
}

const XRAY =
  "X-Ray tracing: xray:PutTraceSegments/PutTelemetryRecords do not support resource-level permissions, so AWS requires Resource '*'.";

export interface NagScope {
  functions: IConstruct[];
  jobFlow: IConstruct;
  routes: IConstruct[];
  /** The function that copies outputs into REELAY_OUTPUT_BUCKETS (permissions.ts allowDelivery), and those buckets. */
  delivery?: { fn: IConstruct; buckets: readonly string[] };
}

/** Every reelay function's accepted findings: scopes that ids unknown at deploy time make wide. */
const FUNCTION_FINDINGS: NagPackSuppression[] = [
  BASIC_EXECUTION_ROLE,
  NODE_22,
  resourceStar(XRAY),
  {
    id: "AwsSolutions-IAM5",
    reason:
      "Objects under one bucket prefix (inbox/, outputs/, rejected/ or uploads/), each job's outputs/<job id>/job.json manifest, each batch's outputs/batches/<batch id>/results.jsonl, or each pending upload's uploads/<upload id>.pending marker and .staged bytes: keys are ids and file names unknown at deploy time, so the prefix (or the file name under it) is the scope.",
    appliesTo: [
      {
        regex:
          "/^Resource::<Bucket[0-9A-F]+\\.Arn>\\/((inbox|outputs|rejected|uploads)\\/\\*|outputs\\/\\*\\/job\\.json|outputs\\/batches\\/\\*\\/results\\.jsonl|uploads\\/\\*\\.(pending|staged))$/",
      },
    ],
  },
  {
    id: "AwsSolutions-IAM5",
    reason:
      "StopExecution (cancel) acts on executions, which are named by job ids unknown at deploy time: the scope is every execution of the one job-flow machine, no other machine's.",
    appliesTo: [
      {
        regex:
          "/^Resource::arn:<AWS::Partition>:states:[^:]+:[^:]+:execution:<JobFlow[0-9A-F]+\\.Name>:\\*$/",
      },
    ],
  },
];

// Singletons that CDK and SST add for their own custom resources (log retention, bucket
// notifications, SST metadata): provider code, not reelay's, deployed and updated with the tools.
const PROVIDER_FINDINGS: [string, NagPackSuppression[]][] = [
  [
    "CustomResourceHandler",
    [
      BASIC_EXECUTION_ROLE,
      {
        ...NODE_22,
        reason:
          "SST's own custom resource provider; its runtime is SST's choice, updated with SST.",
      },
    ],
  ],
  [
    "LogRetentionaae0aa3c5b4d4f87b02d85b201efdd8a",
    [
      BASIC_EXECUTION_ROLE,
      resourceStar(
        "CDK's log retention provider sets retention on log groups created by Lambda at run time, whose ARNs do not exist at deploy time.",
      ),
    ],
  ],
  ["BucketNotificationsHandler050a0587b7544547bf325f094a3db834", [BASIC_EXECUTION_ROLE]],
];

export function suppressNagFindings(stack: Stack, scope: NagScope): void {
  for (const fn of scope.functions) {
    NagSuppressions.addResourceSuppressions(fn, FUNCTION_FINDINGS, true);
  }
  const delivery = scope.delivery;
  if (delivery !== undefined && delivery.buckets.length > 0)
    NagSuppressions.addResourceSuppressions(
      delivery.fn,
      [
        {
          id: "AwsSolutions-IAM5",
          reason:
            "output.s3_prefix: the deployer listed these buckets (REELAY_OUTPUT_BUCKETS) for reelay to deliver outputs into, under prefixes and job ids each request names; s3:PutObject only, on these buckets only.",
          appliesTo: delivery.buckets.map(
            (name) => `Resource::arn:<AWS::Partition>:s3:::${name}/*`,
          ),
        },
      ],
      true,
    );

  NagSuppressions.addResourceSuppressions(
    scope.jobFlow,
    [
      resourceStar(
        `${XRAY} Execution logging: logs:CreateLogDelivery and the other vended-log delivery actions do not support resource-level permissions either.`,
      ),
      {
        id: "AwsSolutions-IAM5",
        reason:
          "LambdaInvoke's grant covers the versions and aliases (ARN:*) of each step's own function, never another function.",
        appliesTo: [{ regex: "/^Resource::<\\w+Function[0-9A-F]+\\.Arn>:\\*$/" }],
      },
    ],
    true,
  );

  for (const route of scope.routes) {
    NagSuppressions.addResourceSuppressions(route, [
      {
        id: "AwsSolutions-APIG4",
        reason:
          "Bearer auth is checked by the API function itself on every /v1 route (one code path with the local stack); /mcp is answered by the MCP function after the API has checked the caller's key; GET /healthz and GET /openapi.json are public by design.",
      },
    ]);
  }

  for (const [id, suppressions] of PROVIDER_FINDINGS) {
    const child = stack.node.tryFindChild(id);
    if (child) NagSuppressions.addResourceSuppressions(child, suppressions, true);
  }
}
