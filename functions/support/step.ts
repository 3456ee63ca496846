/**
 * One job flow step on Lambda: check the state machine's input, then call the core step. Errors
 * leave as thrown: their name (ReelayTransientError or ReelayError) is what Retry and Catch match.
 */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all 450 KB).
import * as z from "zod";
import { ReelayError, type FailureInput, type FlowState } from "@reelay/core/domain";
import {
  JOB_FLOW_STATE_NAMES,
  UPSTREAM_STEPS,
  type JobFlowStep,
} from "@reelay/flow/job-flow-names";
import { FLOW_STEPS, type FlowStep, type PipelineDeps } from "@reelay/core/usecases";
import { awsProcess, buildPipelineDeps } from "./deps.ts";
import { functionLogger, jobsLoggedBy } from "./log.ts";
import { tracedStep } from "./xray.ts";

// Every state of the flow has its step (a state without one fails the typecheck).
const STEPS: Record<JobFlowStep, FlowStep> = FLOW_STEPS;

// Every step's input carries the job id; the step reads everything else it trusts from the record.
const StepInput = z.looseObject({ jobId: z.string().min(1) });

let deps: Promise<PipelineDeps> | undefined;

/** What a step reads of Lambda's context: the time left before the invocation times out. */
export interface InvocationClock {
  getRemainingTimeInMillis(): number;
}

/**
 * A step's Lambda handler. The process's settings are read at the cold start, so a setting the
 * stack forgot fails the function's init with its name instead of every job that reaches the step.
 */
export function stepHandler(
  step: JobFlowStep,
): (event: unknown, context?: InvocationClock) => Promise<unknown> {
  awsProcess();
  return (event, context) => runStep(step, event, context);
}

export async function runStep(
  step: JobFlowStep,
  event: unknown,
  context?: InvocationClock,
): Promise<unknown> {
  const parsed = StepInput.safeParse(event);
  if (!parsed.success) {
    throw new ReelayError("invalid_flow_state", `The ${step} step needs a job id in its input.`, {
      path: "jobId",
    });
  }
  deps ??= buildPipelineDeps({ callsUpstream: UPSTREAM_STEPS.includes(step) });
  const { jobId } = parsed.data;
  const stepName = JOB_FLOW_STATE_NAMES[step];
  // Keys for this invocation only: a warm function's next job starts from none.
  const log = functionLogger();
  log.resetKeys();
  log.appendKeys({ jobId, step: stepName });
  try {
    const ready = await deps;
    const output = await tracedStep(awsProcess().tracer, stepName, { job_id: jobId }, () =>
      STEPS[step](
        {
          ...ready,
          jobs: jobsLoggedBy(ready.jobs, jobId, log),
          ...(context === undefined
            ? {}
            : { remainingMs: () => context.getRemainingTimeInMillis() }),
        },
        parsed.data as unknown as FlowState & FailureInput,
      ),
    );
    logOutcome(jobId, stepName, output);
    return output;
  } catch (error) {
    // The flow's Retry or Catch takes it from here; the line says which step met what.
    log.warn(`job ${jobId}: ${stepName} failed`, { error });
    throw error;
  } finally {
    // What the step recorded (its job's end, the upstream's answers), once per invocation.
    awsProcess().metrics.flush();
  }
}

/** A job's end (Finish, RecordFailure) at info, with its status; every other step at debug. */
function logOutcome(jobId: string, step: string, output: unknown): void {
  const { status, error } = (output ?? {}) as { status?: unknown; error?: { code?: unknown } };
  const ended = step === JOB_FLOW_STATE_NAMES.finish || step === JOB_FLOW_STATE_NAMES.recordFailure;
  const errorCode = typeof error?.code === "string" ? { errorCode: error.code } : {};
  if (ended && typeof status === "string")
    functionLogger().info(`job ${jobId} ${status}`, { status, ...errorCode });
  else
    functionLogger().debug(`job ${jobId}: ${step} done`, {
      ...(typeof status === "string" ? { status } : {}),
      ...errorCode,
    });
}
