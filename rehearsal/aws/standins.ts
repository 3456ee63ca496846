/**
 * The services with no local stand-in of their own, answered inside the rehearsal: SSM (the
 * template's parameters and the stage's SST secrets), EventBridge (the bus and its rules,
 * wires/bus.ts), Lambda's Invoke (the functions), Step Functions (states.ts) and X-Ray (counted,
 * not kept). Each answers in its service's wire format, as the SDK's clients expect.
 */
import type { LambdaFunction } from "../lambda/function.ts";
import type { ResolvedTemplate } from "../template.ts";
import type { EventBus } from "../wires/bus.ts";
import type { AwsCall } from "./call.ts";
import { ServiceError, type Standin, type StandinAnswer } from "./gateway.ts";
import type { StepFunctions } from "./states.ts";

const json = (body: unknown, contentType = "application/x-amz-json-1.1"): StandinAnswer => ({
  headers: { "content-type": contentType },
  body: JSON.stringify(body),
});

/** The template's AWS::SSM::Parameter values, and the secrets set for the stage. */
export class ParameterStore {
  readonly #values = new Map<string, string>();

  constructor(rt: ResolvedTemplate, secrets: Record<string, string>) {
    for (const id of rt.ofType("AWS::SSM::Parameter")) {
      const p = rt.require(id).Properties ?? {};
      this.#values.set(rt.string(p.Name ?? null), rt.string(p.Value ?? null));
    }
    for (const [name, value] of Object.entries(secrets)) this.#values.set(name, value);
  }

  get(name: string): string | undefined {
    return this.#values.get(name);
  }
}

function ssm(parameters: ParameterStore): Standin {
  const entry = (name: string) => ({
    Name: name,
    Type: "SecureString",
    Value: parameters.get(name),
    Version: 1,
  });
  return async (call) => {
    if (call.operation === "GetParameters") {
      const names = (call.input.Names as string[] | undefined) ?? [];
      return json({
        Parameters: names.filter((n) => parameters.get(n) !== undefined).map(entry),
        InvalidParameters: names.filter((n) => parameters.get(n) === undefined),
      });
    }
    if (call.operation === "GetParameter") {
      const name = String((call.input as { Name?: string }).Name);
      if (parameters.get(name) === undefined)
        throw new ServiceError(400, "ParameterNotFound", `Parameter ${name} not found.`);
      return json({ Parameter: entry(name) });
    }
    throw new ServiceError(400, "InvalidAction", `SSM ${call.operation} is not rehearsed.`);
  };
}

function events(bus: EventBus): Standin {
  return async (call) => {
    if (call.operation !== "PutEvents")
      throw new ServiceError(
        400,
        "InvalidAction",
        `EventBridge ${call.operation} is not rehearsed.`,
      );
    return json(bus.putEvents(call.input as Parameters<EventBus["putEvents"]>[0]));
  };
}

function lambda(byName: (name: string) => { lambda: LambdaFunction } | undefined): Standin {
  return async (call: AwsCall, body: Buffer) => {
    const name = String(call.input.FunctionName);
    const fn = byName(name);
    if (fn === undefined)
      throw new ServiceError(404, "ResourceNotFoundException", `Function not found: ${name}`);
    const payload = body.length === 0 ? {} : (JSON.parse(body.toString()) as unknown);
    if (call.input.InvocationType === "Event") {
      fn.lambda.invokeAsync(payload);
      return { status: 202, body: "" };
    }
    const { result } = await fn.lambda.invoke(payload);
    if (result.ok) return { status: 200, body: JSON.stringify(result.payload ?? null) };
    return {
      status: 200,
      headers: { "x-amz-function-error": "Unhandled" },
      body: JSON.stringify({ errorType: result.errorType, errorMessage: result.errorMessage }),
    };
  };
}

function states(machines: StepFunctions): Standin {
  const answer = (body: unknown) => json(body, "application/x-amz-json-1.0");
  const seconds = (date: Date) => date.getTime() / 1000;
  return async (call) => {
    const input = call.input as {
      stateMachineArn?: string;
      name?: string;
      input?: string;
      executionArn?: string;
    };
    switch (call.operation) {
      case "StartExecution": {
        const execution = machines.start(input);
        return answer({ executionArn: execution.arn, startDate: seconds(execution.startDate) });
      }
      case "StopExecution":
        return answer({ stopDate: seconds(machines.stop(input)) });
      case "DescribeExecution": {
        const e = machines.describe(String(input.executionArn));
        return answer({
          executionArn: e.arn,
          stateMachineArn: e.machineArn,
          name: e.name,
          status: e.status,
          startDate: seconds(e.startDate),
          input: e.input,
          ...(e.stopDate === undefined ? {} : { stopDate: seconds(e.stopDate) }),
        });
      }
      default:
        throw new ServiceError(
          400,
          "InvalidAction",
          `Step Functions ${call.operation} is not rehearsed.`,
        );
    }
  };
}

export interface XrayCount {
  segments: number;
}

function xray(count: XrayCount): Standin {
  return async (call) => {
    const documents = (call.input.TraceSegmentDocuments as unknown[] | undefined) ?? [];
    count.segments += documents.length;
    return {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ UnprocessedTraceSegments: [] }),
    };
  };
}

export function awsStandins(deps: {
  parameters: ParameterStore;
  bus: EventBus;
  states: StepFunctions;
  byName: (name: string) => { lambda: LambdaFunction } | undefined;
  xray?: XrayCount;
}) {
  return {
    ssm: ssm(deps.parameters),
    events: events(deps.bus),
    lambda: lambda(deps.byName),
    states: states(deps.states),
    xray: xray(deps.xray ?? { segments: 0 }),
  };
}
