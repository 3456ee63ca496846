/**
 * The OpenTelemetry SDK for the local stack, loaded only when an OTLP endpoint is set
 * (config.traceExport): it registers a tracer provider for the process, so the spans core starts
 * through the API (usecases/tracing.ts) are recorded, batched and sent over OTLP/HTTP, protobuf
 * by default or JSON (`http/json`). Without an endpoint none of this is imported.
 *
 * The exporter reads the other standard settings itself (OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT,
 * _COMPRESSION), the provider its sampler (OTEL_TRACES_SAMPLER) and the batching
 * (OTEL_BSP_*), and the resource OTEL_RESOURCE_ATTRIBUTES: the SDK's own, as the spec names them.
 */
import { context, propagation, trace } from "@opentelemetry/api";
import { ReelayError, shownInput } from "@reelay/core/domain";
import type { TraceExport } from "@reelay/core/wiring";

export interface Tracing {
  /** Sends the spans still batched, then unregisters the provider: nothing records after it. */
  stop(): Promise<void>;
}

const PROTOCOLS = ["http/protobuf", "http/json"] as const;

function checked(settings: TraceExport): (typeof PROTOCOLS)[number] {
  if (!/^https?:\/\/[^/\s]/i.test(settings.url))
    throw new ReelayError(
      "invalid_config",
      `OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) must be an http(s) URL, got ${shownInput(settings.url, 80)}.`,
      { path: "OTEL_EXPORTER_OTLP_ENDPOINT" },
    );
  const protocol = PROTOCOLS.find((known) => known === settings.protocol);
  if (protocol !== undefined) return protocol;
  throw new ReelayError(
    "invalid_config",
    `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be one of ${PROTOCOLS.join(", ")} (the local stack sends OTLP over HTTP), got ${shownInput(settings.protocol, 40)}.`,
    { path: "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL" },
  );
}

/** Registers the SDK's tracer provider for this process, exporting to `settings.url`. */
export async function startTracing(settings: TraceExport): Promise<Tracing> {
  const protocol = checked(settings);
  const [{ NodeTracerProvider, BatchSpanProcessor }, resources, exporters] = await Promise.all([
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/resources"),
    protocol === "http/json"
      ? import("@opentelemetry/exporter-trace-otlp-http")
      : import("@opentelemetry/exporter-trace-otlp-proto"),
  ]);
  const resource = resources
    .defaultResource()
    .merge(resources.detectResources({ detectors: [resources.envDetector] }))
    .merge(resources.resourceFromAttributes({ "service.name": settings.serviceName }));
  const exporter = new exporters.OTLPTraceExporter({ url: settings.url });
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  // The W3C propagator and the AsyncLocalStorage context manager: a step's upstream requests are
  // its children through the async calls between them.
  provider.register();
  return {
    async stop() {
      await provider.shutdown();
      // The process is as before the start: a stack started again here registers anew, and code
      // that runs on (a test file's next stack) records nothing.
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
