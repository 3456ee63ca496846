/**
 * One X-Ray trace per job on AWS, without an X-Ray SDK (aws-xray-sdk-core, which Powertools Tracer
 * brings, would put every bundle over 1 MB):
 *
 * - the job's trace id is derived from its record (`jobTraceId`): its creation second and a hash of
 *   its id. Every execution of the job (a re-admission after a 429 too) is started with that trace
 *   header, so Step Functions and each step's Lambda invocation join the job's trace;
 * - the API function sends one segment into that trace for the request that made the job;
 * - the step functions send a subsegment for each upstream call (create, look, download) under
 *   their invocation's segment: method, the URL without its query (presigned outputs' signatures
 *   never leave), status, and whether it was throttled (429), an error (4xx) or a fault.
 *
 * Documents go to the X-Ray daemon Lambda runs beside the function (AWS_XRAY_DAEMON_ADDRESS, set
 * when the function's tracing is active) over UDP, as the SDKs send them. Nothing is sent where
 * that address is unset (the local stack, tests that don't set it).
 */
import { createHash, randomBytes } from "node:crypto";
import { createSocket, type Socket } from "node:dgram";
import type { Job } from "@reelay/core/domain";

const HEADER = '{"format":"json","version":1}\n';

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

/** The daemon's UDP address: "host:port" or "tcp:host:port udp:host:port". */
function daemonAddress(env: NodeJS.ProcessEnv): { host: string; port: number } | undefined {
  const raw = env.AWS_XRAY_DAEMON_ADDRESS;
  if (raw === undefined || raw === "") return undefined;
  const udp = raw.split(/\s+/).find((part) => part.startsWith("udp:")) ?? raw;
  const match = /^(?:udp:)?([^\s:]+):(\d+)$/.exec(udp);
  return match === null ? undefined : { host: match[1] as string, port: Number(match[2]) };
}

let socket: Socket | undefined;

/** Sends one segment or subsegment document; resolves once it left (before Lambda freezes). */
async function sendTraceDocument(
  document: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const to = daemonAddress(env);
  if (to === undefined) return;
  socket ??= createSocket("udp4").unref();
  const packet = Buffer.from(HEADER + JSON.stringify(document));
  await new Promise<void>((resolve) => {
    // A lost trace document must never fail the work it describes.
    socket?.send(packet, to.port, to.host, () => resolve());
  });
}

function segmentId(): string {
  return randomBytes(8).toString("hex");
}

/** The invocation's trace (Root, Parent, Sampled), from the runtime's store or `_X_AMZN_TRACE_ID`. */
function currentTrace(
  env: NodeJS.ProcessEnv,
): { root: string; parent: string; sampled: boolean } | undefined {
  const store = (
    globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId(): string | undefined } } }
  ).awslambda?.InvokeStore;
  const raw = store?.getXRayTraceId() ?? env._X_AMZN_TRACE_ID ?? "";
  const fields = new Map(
    raw.split(";").map((field) => field.split("=", 2) as [string, string | undefined]),
  );
  const root = fields.get("Root");
  const parent = fields.get("Parent");
  if (root === undefined || parent === undefined) return undefined;
  return { root, parent, sampled: fields.get("Sampled") === "1" };
}

/** A URL as traced: scheme, host and path; never the query (presigned signatures live there). */
function tracedUrl(input: Parameters<typeof fetch>[0]): URL | undefined {
  try {
    const url = new URL(input instanceof Request ? input.url : String(input));
    return new URL(`${url.origin}${url.pathname}`);
  } catch {
    return undefined;
  }
}

/** `fetch` that records each call as a remote subsegment of the invocation's sampled trace. */
export function xrayFetch(inner: typeof fetch, env: NodeJS.ProcessEnv = process.env): typeof fetch {
  return async (input, init) => {
    const trace = currentTrace(env);
    if (trace === undefined || !trace.sampled || daemonAddress(env) === undefined)
      return inner(input, init);
    const url = tracedUrl(input);
    const started = Date.now() / 1000;
    const document: Record<string, unknown> = {
      type: "subsegment",
      id: segmentId(),
      trace_id: trace.root,
      parent_id: trace.parent,
      name: url?.host ?? "upstream",
      namespace: "remote",
      start_time: started,
    };
    const request = { method: init?.method ?? "GET", url: url?.href ?? "" };
    try {
      const response = await inner(input, init);
      const status = response.status;
      Object.assign(document, {
        http: { request, response: { status } },
        ...(status === 429 ? { throttle: true, error: true } : {}),
        ...(status >= 400 && status < 500 ? { error: true } : {}),
        ...(status >= 500 ? { fault: true } : {}),
      });
      return response;
    } catch (error) {
      Object.assign(document, { http: { request }, fault: true });
      throw error;
    } finally {
      document.end_time = Date.now() / 1000;
      await sendTraceDocument(document, env);
    }
  };
}

/**
 * The API function's segment in a job's trace: the request that made the job (its method and
 * route path, from when the invocation began until the job was handed to the queue).
 */
export async function sendApiSegment(
  job: Pick<Job, "id" | "createdAt">,
  request: { method: string; path: string; startedAt: number },
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  await sendTraceDocument(
    {
      name: "reelay-api",
      id: segmentId(),
      trace_id: jobTraceId(job),
      start_time: request.startedAt / 1000,
      end_time: Date.now() / 1000,
      origin: "AWS::Lambda::Function",
      http: { request: { method: request.method, url: request.path } },
      annotations: { job_id: job.id },
    },
    env,
  );
}
