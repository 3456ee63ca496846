import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/wiring/config.ts";

describe("the trace export settings", () => {
  it("no endpoint, or OTEL_SDK_DISABLED=true, is no export at all", () => {
    expect(loadConfig({}).traceExport).toBeUndefined();
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318",
        OTEL_SDK_DISABLED: "TRUE",
      }).traceExport,
    ).toBeUndefined();
  });

  it("the base endpoint gets /v1/traces, the traces endpoint is used as given and wins; protobuf and the service name reelay by default", () => {
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }).traceExport,
    ).toEqual({
      url: "http://collector:4318/v1/traces",
      protocol: "http/protobuf",
      serviceName: "reelay",
    });
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/otlp",
        OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "HTTP/JSON",
        OTEL_SERVICE_NAME: "reelay-dev",
      }).traceExport,
    ).toEqual({
      url: "https://traces.example/otlp",
      protocol: "http/json",
      serviceName: "reelay-dev",
    });
  });
});
