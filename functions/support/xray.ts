/**
 * One X-Ray trace per job on AWS, through Powertools Tracer (aws-xray-sdk-core underneath, which
 * sends the documents over UDP to the daemon Lambda runs beside the function,
 * AWS_XRAY_DAEMON_ADDRESS):
 *
 * - the job's trace id is derived from its record (`jobTraceId`): its creation second and a hash of
 *   its id. Every execution of the job (a re-admission after a 429 too) is started with that trace
 *   header, so Step Functions and each step's Lambda invocation join the job's trace;
 * - the API function sends one segment into that trace for the request that made the job;
 * - each step runs in a subsegment of its invocation annotated with the job id (`tracedStep`), and
 *   Tracer records every HTTP call under it (the upstream's create, look and download, the SDK's
 *   calls): method, the URL without its query (presigned outputs' signatures never leave),
 *   status, and whether it was throttled (429), an error (4xx) or a fault.
 *
 * Tracer is off outside Lambda (no AWS_EXECUTION_ENV), and then nothing here sends anything.
 */
import { createHash } from "node:crypto";
import { Tracer } from "@aws-lambda-powertools/tracer";
import type { Job } from "@reelay/core/domain";
import xray from "aws-xray-sdk-core";

/** The functions' tracer, service "reelay"; it instruments http, https and fetch when on. */
export function functionTracer(): Tracer {
  return new Tracer({ serviceName: "reelay" });
}

/** The job's X-Ray trace id: `1-<creation epoch seconds, 8 hex>-<24 hex of sha256(id)>`. */
export function jobTraceId(job: Pick<Job, "id" | "createdAt">): string {
  const seconds = Math.floor(Date.parse(job.createdAt) / 1000);
  const hash = createHash("sha256").update(job.id).digest("hex").slice(0, 24);
  return `1-${seconds.toString(16).padStart(8, "0")}-${hash}`;
}

/** The trace header an execution of the job is started with (StartExecution's traceHeader). */
export function jobTraceHeader(job: Pick<Job, "id" | "createdAt">): string {
  return `Root=${jobTraceId(job)};Sampled=1`;
}

/**
 * `work` in a subsegment `## <name>` of the invocation's segment, annotated with the cold start,
 * the service and `annotations` (the job id, to find a job's steps by it); the calls `work` makes
 * are recorded under it.
 */
export async function tracedStep<R>(
  tracer: Tracer,
  name: string,
  annotations: Record<string, string>,
  work: () => Promise<R>,
): Promise<R> {
  const parent = tracer.isTracingEnabled() ? tracer.getSegment() : undefined;
  if (parent === undefined) return work();
  const subsegment = parent.addNewSubsegment(`## ${name}`);
  tracer.setSegment(subsegment);
  tracer.annotateColdStart();
  tracer.addServiceNameAnnotation();
  for (const [key, value] of Object.entries(annotations)) tracer.putAnnotation(key, value);
  try {
    return await work();
  } catch (error) {
    tracer.addErrorAsMetadata(error as Error);
    throw error;
  } finally {
    subsegment.close();
    tracer.setSegment(parent);
  }
}

/**
 * The API function's segment in a job's trace: the request that made the job (its method and
 * route path, from when the invocation began until the job was handed to the queue).
 */
export function sendApiSegment(
  tracer: Tracer,
  job: Pick<Job, "id" | "createdAt">,
  request: { method: string; path: string; startedAt: number },
): void {
  if (!tracer.isTracingEnabled()) return;
  const segment = new xray.Segment("reelay-api", jobTraceId(job));
  Object.assign(segment, {
    start_time: request.startedAt / 1000,
    origin: "AWS::Lambda::Function",
    http: { request: { method: request.method, url: request.path } },
  });
  segment.addAnnotation("job_id", job.id);
  segment.close();
}
