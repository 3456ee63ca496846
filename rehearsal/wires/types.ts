/**
 * What the wires are handed: the synthesized template, and the function runner's two ways of
 * calling a function by its logical id (another part of the rehearsal runs each function in its own
 * process). The wires decide only which function gets which event, as the template says.
 */

/** A synthesized CloudFormation template, as parsed JSON. */
export type Template = Record<string, unknown>;

/** A synchronous invocation (RequestResponse): API Gateway waits for the function's answer. */
export type Invoke = (
  functionLogicalId: string,
  event: unknown,
) => Promise<
  { ok: true; payload: unknown } | { ok: false; errorType: string; errorMessage: string }
>;

/**
 * An asynchronous invocation (Event): EventBridge, S3 and schedules hand the event over and move
 * on; retries and dead letters are the runner's, as they are Lambda's in AWS.
 */
export type InvokeAsync = (functionLogicalId: string, event: unknown) => void;
