/**
 * The authorizations of the calls to EventBridge, SSM Parameter Store, Lambda, Step Functions and
 * X-Ray that the functions make.
 */
import type { AwsCall } from "../aws/call.ts";
import {
  type AccountFacts,
  arrayField,
  type IamRequest,
  isRecord,
  malformed,
  optionalString,
  regionalArn,
  request,
  stringField,
  unknownOperation,
} from "./iam-request.ts";

/**
 * Each entry is authorized on its own bus (EventBusName: a name or an ARN; none is the account's
 * `default` bus), with its Source and DetailType as `events:source` and `events:detail-type` ("To
 * grant access to specific sources and types of events, use the events:source and
 * events:detail-type condition keys", EventBridge user guide, "Using IAM policy conditions"). Both
 * keys are ArrayOfString in the Service Authorization Reference, so each is given as a list.
 */
export function eventsRequests(call: AwsCall, facts: AccountFacts): IamRequest[] {
  if (call.operation !== "PutEvents") throw unknownOperation(call);
  return arrayField(call, call.input, "Entries").map((entry) => {
    if (!isRecord(entry)) throw malformed(call, "has an entry that is not an object");
    const bus = optionalString(entry, "EventBusName") ?? "default";
    const source = optionalString(entry, "Source");
    const detailType = optionalString(entry, "DetailType");
    return request(
      "events:PutEvents",
      bus.startsWith("arn:") ? bus : regionalArn(facts, "events", `event-bus/${bus}`),
      {
        ...(source === undefined ? {} : { "events:source": [source] }),
        ...(detailType === undefined ? {} : { "events:detail-type": [detailType] }),
      },
    );
  });
}

/**
 * A parameter's ARN is `arn:<partition>:ssm:<region>:<account>:parameter/<name>`, the name's leading
 * slash dropped (`/sst/x` is `parameter/sst/x`). A name may carry a version or label selector
 * (`name:3`, `name:live`), which is not part of the ARN.
 */
function parameterArn(facts: AccountFacts, name: string): string {
  if (name.startsWith("arn:")) {
    const at = name.indexOf(":parameter/");
    const selector = at < 0 ? -1 : name.indexOf(":", at + 1);
    return selector < 0 ? name : name.slice(0, selector);
  }
  const bare = name.replace(/^\//, "").replace(/:[^/:]*$/, "");
  return regionalArn(facts, "ssm", `parameter/${bare}`);
}

export function ssmRequests(call: AwsCall, facts: AccountFacts): IamRequest[] {
  const input = call.input;
  switch (call.operation) {
    case "GetParameter":
      return [request("ssm:GetParameter", parameterArn(facts, stringField(call, input, "Name")))];
    case "GetParameters":
      return arrayField(call, input, "Names").map((name) => {
        if (typeof name !== "string" || name === "")
          throw malformed(call, "has a name that is not a string");
        return request("ssm:GetParameters", parameterArn(facts, name));
      });
    case "GetParametersByPath":
      return [
        request("ssm:GetParametersByPath", parameterArn(facts, stringField(call, input, "Path"))),
      ];
    default:
      throw unknownOperation(call);
  }
}

/**
 * Invoke is authorized as lambda:InvokeFunction on the function's ARN as the caller named it:
 * FunctionName is a name, a full ARN or a partial ARN (`<account>:function:<name>`), any of them
 * with a version or alias appended (Invoke, Lambda API reference), or the Qualifier parameter
 * gives it. A qualified invocation is authorized on the qualified ARN only ("If you use an
 * unqualified function name ... the permission is valid only for invoking the function using the
 * unqualified function ARN", Lambda developer guide, "Versioning, aliases, and resource policies").
 */
export function lambdaRequests(call: AwsCall, facts: AccountFacts): IamRequest[] {
  if (call.operation !== "Invoke") throw unknownOperation(call);
  const name = stringField(call, call.input, "FunctionName");
  const arn = name.startsWith("arn:")
    ? name
    : /^\d{12}:function:/.test(name)
      ? `arn:${facts.partition}:lambda:${facts.region}:${name}`
      : regionalArn(facts, "lambda", `function:${name}`);
  const qualifier = optionalString(call.input, "Qualifier");
  // arn:partition:lambda:region:account:function:name has 7 parts; an 8th is its qualifier.
  const qualified =
    qualifier !== undefined && arn.split(":").length === 7 ? `${arn}:${qualifier}` : arn;
  return [request("lambda:InvokeFunction", qualified)];
}

/** Starting runs on the state machine's ARN; stopping and describing on the execution's. */
export function statesRequests(call: AwsCall): IamRequest[] {
  const input = call.input;
  switch (call.operation) {
    case "StartExecution":
    case "StartSyncExecution":
      return [request(`states:${call.operation}`, stringField(call, input, "stateMachineArn"))];
    case "StopExecution":
    case "DescribeExecution":
      return [request(`states:${call.operation}`, stringField(call, input, "executionArn"))];
    default:
      throw unknownOperation(call);
  }
}

/** X-Ray's actions take no resource: a policy grants them on "*". */
const XRAY_OPERATIONS = new Set([
  "PutTraceSegments",
  "PutTelemetryRecords",
  "GetSamplingRules",
  "GetSamplingTargets",
]);

export function xrayRequests(call: AwsCall): IamRequest[] {
  if (!XRAY_OPERATIONS.has(call.operation)) throw unknownOperation(call);
  return [request(`xray:${call.operation}`, "*")];
}
