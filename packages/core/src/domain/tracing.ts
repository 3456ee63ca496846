/**
 * Spans through the OpenTelemetry API, the one place core touches it. The API alone records
 * nothing: with no provider registered every span here is a no-op that costs a function call, which
 * is what the Lambda functions and a local stack without OTEL_EXPORTER_OTLP_ENDPOINT run. The
 * local stack registers the SDK when asked (packages/local/src/otel.ts); on AWS a layer may.
 *
 * One job, one trace: submit keeps the W3C `traceparent` of its span on the job record, and every
 * later span of the job (the wait for a slot, each step, the webhook attempts) is started as a
 * child of it, in whichever process or invocation it runs. Spans started inside another (an
 * upstream request inside a step, the copy) take the job's attributes from the context, so every
 * span of a job carries `reelay.job_id`.
 */
import {
  type Attributes,
  type Context,
  context,
  createContextKey,
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
} from "@opentelemetry/api";
import type { Job } from "./jobs/types.ts";

const TRACER_NAME = "reelay";

/** What the spans of one scope share: the job's attributes, and the spans that want them when known. */
interface Scope {
  attributes: Attributes;
  /** This scope's span and its in-process ancestors (the request, submit), named by noteJob. */
  waiting: Span[];
}

const SCOPE = createContextKey("reelay.tracing.scope");

const SPAN_KINDS = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  internal: SpanKind.INTERNAL,
} as const;

/** Spans already naming a job: an ancestor names the first job made under it (a batch request makes many). */
const named = new WeakSet<Span>();

function scopeOf(ctx: Context): Scope | undefined {
  return ctx.getValue(SCOPE) as Scope | undefined;
}

/** The attributes naming a job on its spans: its id, and its model and upstream account where known. */
export function jobAttributes(
  job: Partial<Pick<Job, "id" | "model" | "upstreamAccount">>,
): Attributes {
  return {
    ...(job.id === undefined ? {} : { "reelay.job_id": job.id }),
    ...(job.model === undefined ? {} : { "reelay.model": job.model }),
    ...(job.upstreamAccount === undefined
      ? {}
      : { "reelay.upstream.account": job.upstreamAccount }),
  };
}

// Parsed here rather than through the registered propagator: the record's traceparent must read
// the same whichever propagators a layer or the SDK registered (X-Ray's, B3, none).
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The context a remote parent names, or undefined for an absent or malformed traceparent. */
function remoteParent(traceparent: string | undefined): Context | undefined {
  const match = traceparent === undefined ? null : TRACEPARENT.exec(traceparent.trim());
  if (match === null) return undefined;
  const [, traceId = "", spanId = "", flags = "00"] = match;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  });
}

/** The W3C traceparent of the span in `ctx`; undefined when nothing records it (no SDK, not sampled). */
function traceparentOf(ctx: Context): string | undefined {
  const span = trace.getSpan(ctx);
  if (span === undefined || !span.isRecording()) return undefined;
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${(traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, "0")}`;
}

/** The traceparent of the span running now, for a job record: its later spans join that trace. */
export function currentTraceparent(): string | undefined {
  return traceparentOf(context.active());
}

export interface SpanOptions {
  attributes?: Attributes;
  /**
   * The job's traceparent: the span is its child whatever runs around it (a step in another
   * process, or a local one whose async context still holds the request that queued the job).
   */
  parent?: string | undefined;
  /** Begin a trace of its own, linked to the span running now (a batch's line: its job's trace). */
  newTrace?: boolean;
  /** `server` for a request reelay answers, `client` for one it sends; `internal` otherwise. */
  kind?: "server" | "client" | "internal";
  startTime?: Date | number;
}

/** A started span as the code around it sees it. */
export interface TraceSpan {
  /** Adds attributes to this span. */
  set(attributes: Attributes): void;
  /** Names the span anew (a request's, once its route is known). */
  rename(name: string): void;
  /** Names the job on this span, its children from now on, and its ancestors here that had none. */
  noteJob(job: Partial<Pick<Job, "id" | "model" | "upstreamAccount">>): void;
  /** Marks the span failed by the error's code (never its message, which may quote a URL). */
  fail(error: unknown): void;
  /** Ends the span, failed when given an error. */
  end(error?: unknown): void;
}

function errorType(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && code !== "") return code;
    if (error instanceof Error) return error.name;
  }
  return "error";
}

function parentContext(options: SpanOptions): { parent: Context; links: Link[] } {
  const remote = remoteParent(options.parent);
  if (remote !== undefined) return { parent: remote, links: [] };
  if (options.newTrace !== true) return { parent: context.active(), links: [] };
  const active = trace.getSpan(context.active());
  const linked = active?.isRecording() === true ? [{ context: active.spanContext() }] : [];
  return { parent: ROOT_CONTEXT, links: linked };
}

/** Starts a span; the caller ends it. `inSpan` is the usual form. */
export function startSpan(
  name: string,
  options: SpanOptions = {},
): TraceSpan & { context: Context } {
  const { parent, links } = parentContext(options);
  const inherited = scopeOf(parent);
  const span = trace.getTracer(TRACER_NAME).startSpan(
    name,
    {
      kind: SPAN_KINDS[options.kind ?? "internal"],
      attributes: { ...inherited?.attributes, ...options.attributes },
      links,
      ...(options.startTime === undefined ? {} : { startTime: options.startTime }),
    },
    parent,
  );
  const scope: Scope = {
    attributes: { ...inherited?.attributes },
    waiting: [...(inherited?.waiting ?? []), span],
  };
  return {
    context: trace.setSpan(parent, span).setValue(SCOPE, scope),
    set: (attributes) => span.setAttributes(attributes),
    rename: (next) => span.updateName(next),
    noteJob(job) {
      const attributes = jobAttributes(job);
      Object.assign(scope.attributes, attributes);
      span.setAttributes(attributes);
      named.add(span);
      for (const ancestor of scope.waiting) {
        if (named.has(ancestor)) continue;
        ancestor.setAttributes(attributes);
        named.add(ancestor);
      }
    },
    fail: (error) => failSpan(span, error),
    end(error) {
      if (error !== undefined) failSpan(span, error);
      span.end();
    },
  };
}

function failSpan(span: Span, error: unknown): void {
  const type = errorType(error);
  span.setAttribute("error.type", type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/** `work` inside a span: the spans it starts are its children, and a throw marks it failed. */
export async function inSpan<T>(
  name: string,
  options: SpanOptions,
  work: (span: TraceSpan) => Promise<T>,
): Promise<T> {
  const span = startSpan(name, options);
  try {
    const result = await context.with(span.context, () => work(span));
    span.end();
    return result;
  } catch (error) {
    span.end(error);
    throw error;
  }
}

/** A span for a time already past (the wait in the queue, known when it ends). */
export function recordSpan(
  name: string,
  options: SpanOptions & { startTime: Date | number; endTime: Date | number },
): void {
  const span = startSpan(name, options);
  // The end time is the span's own: TraceSpan.end() would stamp now.
  trace.getSpan(span.context)?.end(options.endTime);
}
