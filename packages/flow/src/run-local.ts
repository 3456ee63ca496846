/**
 * Runs the job flow's ASL on one machine with aws-local-stepfunctions: the interpreter is real
 * (Wait, Choice, Retry, Catch, timeouts), every Task calls an in-process handler keyed by state name.
 */
import { StateMachine, type StateMachineDefinition } from "aws-local-stepfunctions";

// aws-local-stepfunctions calls Promise.withResolvers, which Node 20 lacks (Node 22 has it).
if (typeof (Promise as { withResolvers?: unknown }).withResolvers !== "function") {
  Object.defineProperty(Promise, "withResolvers", {
    configurable: true,
    writable: true,
    value: function withResolvers<T>() {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

type Json = Parameters<StateMachine["run"]>[0];
// biome-ignore lint/suspicious/noExplicitAny: the interpreter passes each Task whatever JSON the state before it produced; each handler (and each test's) types it as the state it expects.
export type LocalTaskHandler = (input: any) => Promise<unknown>;
/** One entry of the interpreter's execution event log: StateEntered, StateExited, StateRetried, ... */
export type ExecutionEvent =
  ReturnType<StateMachine["run"]>["eventLogs"] extends AsyncGenerator<infer E> ? E : never;

export interface RunJobFlowLocallyOptions {
  /** The ASL, from `synthJobFlowDefinition()`. */
  definition: Record<string, unknown>;
  /** One handler per Task state name ("Submit", "Poll", ...); every Task must have one. */
  handlers: Record<string, LocalTaskHandler>;
  input: Record<string, unknown>;
  /** The job id, as on AWS (there the execution name is the job id). */
  executionName: string;
  /**
   * Multiplies every Wait and every Retry interval (1 = real time, the default). Under a scale the
   * retry intervals do not grow by BackoffRate: each is IntervalSeconds x scale.
   */
  waitScale?: number;
  /** Stops the execution (e.g. on shutdown); the returned promise then rejects with ExecutionAbortedError. */
  signal?: AbortSignal;
  /**
   * Sees every event of the execution's log (what a benchmark counts state transitions from); the
   * returned promise settles only after the last one was handed over.
   */
  onEvent?: (event: ExecutionEvent) => void;
}

interface StateDef {
  Type?: string;
  SecondsPath?: string;
  Seconds?: number;
  Retry?: { IntervalSeconds?: number }[];
}

function statesOf(definition: Record<string, unknown>): Record<string, StateDef> {
  return (definition.States ?? {}) as Record<string, StateDef>;
}

/** Reads a simple `$.a.b` path; the flow only uses top-level fields. */
function readPath(value: unknown, path: string): unknown {
  return path
    .replace(/^\$\.?/, "")
    .split(".")
    .filter(Boolean)
    .reduce<unknown>(
      (at, key) =>
        at !== null && typeof at === "object" ? (at as Record<string, unknown>)[key] : undefined,
      value,
    );
}

const machines = new WeakMap<object, StateMachine>();
const machinesByText = new Map<string, StateMachine>();

/**
 * One interpreter per definition: building it validates the ASL, which costs about half a second of
 * CPU, too much to pay per job (at a few jobs a second it held every Submit seconds behind) or per
 * local stack (a test run starts a hundred in a few processes). Found by the object, else by its
 * text. An instance keeps only the definition; each run() has its own state, so executions share
 * it safely. It is given a copy: the interpreter fills in defaults (QueryLanguage) on what it holds.
 */
export function stateMachineFor(definition: Record<string, unknown>): StateMachine {
  let machine = machines.get(definition);
  if (machine === undefined) {
    const text = JSON.stringify(definition);
    machine =
      machinesByText.get(text) ??
      new StateMachine(structuredClone(definition) as unknown as StateMachineDefinition, {
        validationOptions: { checkArn: false },
      });
    machinesByText.set(text, machine);
    machines.set(definition, machine);
  }
  return machine;
}

export async function runJobFlowLocally(opts: RunJobFlowLocallyOptions): Promise<unknown> {
  const states = statesOf(opts.definition);
  const scale = opts.waitScale ?? 1;
  const taskNames = Object.keys(states).filter((name) => states[name]?.Type === "Task");
  const missing = taskNames.filter((name) => !(name in opts.handlers));
  if (missing.length > 0)
    throw new Error(`No local handler for Task state(s): ${missing.join(", ")}.`);

  // The last state output: a Wait's input is its predecessor's output, so a scaled wait reads it.
  let lastOutput: unknown = opts.input;
  const taskResourceLocalHandlers = Object.fromEntries(
    Object.entries(opts.handlers).map(([name, handler]) => [
      name,
      async (input: Json) => {
        const output = await handler(input);
        lastOutput = output;
        return output as Json;
      },
    ]),
  );

  const overrides: NonNullable<Parameters<StateMachine["run"]>[1]>["overrides"] = {
    taskResourceLocalHandlers,
  };
  if (scale !== 1) {
    const waits: Record<string, number> = {};
    for (const [name, state] of Object.entries(states)) {
      if (state.Type !== "Wait") continue;
      // Read at each visit of the state, so every wait uses the seconds its input asks for.
      Object.defineProperty(waits, name, {
        enumerable: true,
        get: () => {
          const seconds =
            state.SecondsPath !== undefined
              ? Number(readPath(lastOutput, state.SecondsPath))
              : (state.Seconds ?? 0);
          return Math.max(0, (Number.isFinite(seconds) ? seconds : 0) * 1000 * scale);
        },
      });
    }
    overrides.waitTimeOverrides = waits;
    overrides.retryIntervalOverrides = Object.fromEntries(
      taskNames.map((name) => [
        name,
        (states[name]?.Retry ?? []).map((r) => (r.IntervalSeconds ?? 1) * 1000 * scale),
      ]),
    );
  }

  const machine = stateMachineFor(opts.definition);
  const execution = machine.run(opts.input as Json, {
    overrides,
    context: {
      Execution: { Name: opts.executionName, Input: opts.input as Record<string, unknown> },
    } as never,
  });
  const signal = opts.signal;
  if (signal?.aborted) execution.abort();
  else if (signal !== undefined) {
    // Taken off once the execution ends: a signal that outlives its executions (the local stack's
    // own) would otherwise keep each finished one alive, its events and states with it.
    const abort = () => execution.abort();
    signal.addEventListener("abort", abort, { once: true });
    const detach = () => signal.removeEventListener("abort", abort);
    execution.result.then(detach, detach);
  }
  if (opts.onEvent === undefined) return execution.result;
  const onEvent = opts.onEvent;
  const drained = (async () => {
    for await (const event of execution.eventLogs) onEvent(event);
  })();
  return execution.result.finally(() => drained);
}

export {
  ExecutionAbortedError,
  ExecutionError,
} from "aws-local-stepfunctions";
