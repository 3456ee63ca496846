/**
 * Step Functions for the rehearsal: each state machine of the template runs its own definition
 * (the DefinitionString with the function ARNs in it) on the local interpreter, and every Task
 * invokes the function its Resource ARN names, after the machine's role is checked for
 * lambda:InvokeFunction on it, as Step Functions would be. Executions are named as on AWS, and a
 * second StartExecution of a running name with the same input answers the same execution.
 */
import { type ExecutionEvent, runJobFlowLocally } from "@reelay/flow/run-local";
import type { IamGate } from "../iam/gate.ts";
import type { ResolvedTemplate } from "../template.ts";
import { ServiceError } from "./gateway.ts";

interface TaskFailure {
  errorType: string;
  errorMessage: string;
}

/** Invokes the function an ARN names; a failed invocation answers its error type and message. */
export type InvokeArn = (
  arn: string,
  input: unknown,
) => Promise<{ ok: true; payload: unknown } | ({ ok: false } & TaskFailure)>;

export interface Execution {
  arn: string;
  name: string;
  machineArn: string;
  input: string;
  status: "RUNNING" | "SUCCEEDED" | "FAILED" | "ABORTED";
  startDate: Date;
  stopDate?: Date;
  transitions: number;
  error?: string;
  output?: unknown;
}

interface Machine {
  arn: string;
  name: string;
  definition: Record<string, unknown>;
  roleAccessKey: string;
}

/** The error a failed Task raises in the interpreter: its name is what Retry and Catch match. */
function taskError(failure: TaskFailure): Error {
  const error = new Error(failure.errorMessage);
  error.name = failure.errorType;
  return error;
}

/** A state's input or output as Step Functions measures it against its quota: UTF-8 JSON. */
function payloadBytes(value: unknown): number {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value));
}

export class StepFunctions {
  readonly #machines = new Map<string, Machine>();
  #largest = { bytes: 0, where: "no execution" };
  readonly #executions = new Map<string, Execution>();
  readonly #aborts = new Map<string, AbortController>();
  readonly #running = new Set<Promise<unknown>>();
  #logBytes = 0;

  constructor(
    rt: ResolvedTemplate,
    private readonly opts: {
      gate: IamGate;
      invoke: InvokeArn;
      /** The access key of each role (by logical id) the rehearsal signs as. */
      accessKeyOfRole: (roleLogicalId: string) => string;
      /** Multiplies every Wait and Retry interval (compressed time). */
      waitScale: number;
    },
  ) {
    this.define(rt);
  }

  /**
   * The template's state machines, as a deploy leaves them: a StartExecution from now on runs the
   * definition given here, while an execution already running keeps the one it started with (as
   * Step Functions runs it). Answers the names of the machines whose definition changed.
   */
  define(rt: ResolvedTemplate): string[] {
    const changed: string[] = [];
    for (const id of rt.ofType("AWS::StepFunctions::StateMachine")) {
      const p = rt.require(id).Properties ?? {};
      const roleId = String((p.RoleArn as { "Fn::GetAtt"?: string[] })["Fn::GetAtt"]?.[0]);
      const arn = rt.arnOf(id);
      const definition = JSON.parse(rt.string(p.DefinitionString ?? null)) as Record<
        string,
        unknown
      >;
      const before = this.#machines.get(arn);
      if (before !== undefined && JSON.stringify(before.definition) !== JSON.stringify(definition))
        changed.push(before.name);
      this.#machines.set(arn, {
        arn,
        name: rt.nameOf(id),
        definition,
        roleAccessKey: this.opts.accessKeyOfRole(roleId),
      });
    }
    return changed;
  }

  start(input: { stateMachineArn?: string; name?: string; input?: string }): Execution {
    const machine = this.#machines.get(String(input.stateMachineArn));
    if (machine === undefined)
      throw new ServiceError(
        400,
        "StateMachineDoesNotExist",
        `No state machine ${input.stateMachineArn}.`,
      );
    const name = input.name ?? crypto.randomUUID();
    const arn = `${machine.arn.replace(":stateMachine:", ":execution:")}:${name}`;
    const text = input.input ?? "{}";
    const existing = this.#executions.get(arn);
    if (existing !== undefined) {
      if (existing.status === "RUNNING" && existing.input === text) return existing;
      throw new ServiceError(400, "ExecutionAlreadyExists", `Execution ${name} already exists.`);
    }
    const execution: Execution = {
      arn,
      name,
      machineArn: machine.arn,
      input: text,
      status: "RUNNING",
      startDate: new Date(),
      transitions: 0,
    };
    this.#executions.set(arn, execution);
    this.run(machine, execution);
    return execution;
  }

  stop(input: { executionArn?: string; error?: string; cause?: string }): Date {
    const execution = this.#executions.get(String(input.executionArn));
    if (execution === undefined)
      throw new ServiceError(400, "ExecutionDoesNotExist", `No execution ${input.executionArn}.`);
    if (execution.status === "RUNNING") {
      execution.status = "ABORTED";
      execution.stopDate = new Date();
      this.#aborts.get(execution.arn)?.abort();
    }
    return execution.stopDate ?? new Date();
  }

  describe(executionArn: string): Execution {
    const execution = this.#executions.get(executionArn);
    if (execution === undefined)
      throw new ServiceError(400, "ExecutionDoesNotExist", `No execution ${executionArn}.`);
    return execution;
  }

  executions(): Execution[] {
    return [...this.#executions.values()];
  }

  /** The largest state input or output any execution passed (256 KB each on Step Functions). */
  largestPayload(): { bytes: number; where: string } {
    return { ...this.#largest };
  }

  #measure(execution: Execution, event: ExecutionEvent): void {
    if (event.type !== "StateEntered" && event.type !== "StateExited") return;
    const entered = event.type === "StateEntered";
    const what = entered ? "input" : "output";
    const bytes = payloadBytes(entered ? event.state.input : event.state.output);
    if (bytes > this.#largest.bytes)
      this.#largest = { bytes, where: `${event.state.name}'s ${what} in ${execution.name}` };
  }

  /**
   * The bytes of the executions' events as JSON (each state entered and exited, with its input and
   * output): what the machine's log group (level ALL, execution data) ingests, at the least.
   */
  logBytes(): number {
    return this.#logBytes;
  }

  /** Resolves when no execution is running. */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  private handlers(machine: Machine): Record<string, (input: unknown) => Promise<unknown>> {
    const states = (machine.definition.States ?? {}) as Record<
      string,
      { Type?: string; Resource?: string }
    >;
    return Object.fromEntries(
      Object.entries(states)
        .filter(([, state]) => state.Type === "Task")
        .map(([name, state]) => [
          name,
          (input: unknown) => this.task(machine, String(state.Resource), input),
        ]),
    );
  }

  private async task(machine: Machine, resource: string, input: unknown): Promise<unknown> {
    const verdict = await this.opts.gate.authorize({
      accessKeyId: machine.roleAccessKey,
      service: "lambda",
      operation: "Invoke",
      input: { FunctionName: resource, InvocationType: "RequestResponse" },
    });
    if (!verdict.allowed)
      throw taskError({
        errorType: "Lambda.AWSLambdaException",
        errorMessage: verdict.decisions.map((d) => d.reason ?? "").join(" "),
      });
    const result = await this.opts.invoke(resource, input);
    if (!result.ok) throw taskError(result);
    return result.payload;
  }

  private run(machine: Machine, execution: Execution): void {
    const abort = new AbortController();
    this.#aborts.set(execution.arn, abort);
    const count = (event: ExecutionEvent) => {
      this.#logBytes += Buffer.byteLength(JSON.stringify(event));
      if (event.type === "StateEntered" || event.type === "StateRetried")
        execution.transitions += 1;
      this.#measure(execution, event);
    };
    const done = runJobFlowLocally({
      definition: machine.definition,
      handlers: this.handlers(machine),
      input: JSON.parse(execution.input) as Record<string, unknown>,
      executionName: execution.name,
      waitScale: this.opts.waitScale,
      signal: abort.signal,
      onEvent: count,
    }).then(
      (output) => {
        if (execution.status !== "RUNNING") return;
        execution.status = "SUCCEEDED";
        execution.output = output;
        execution.stopDate = new Date();
      },
      (error: unknown) => {
        if (execution.status !== "RUNNING") return;
        execution.status = "FAILED";
        execution.error =
          error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        execution.stopDate = new Date();
      },
    );
    this.#running.add(done);
    done.finally(() => {
      this.#running.delete(done);
      this.#aborts.delete(execution.arn);
    });
  }
}
