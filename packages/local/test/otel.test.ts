/**
 * The local stack's SDK start (otel.ts): the default protocol sends OTLP protobuf to the traces URL
 * (an OTLP receiver played by node:http), and the settings it cannot honour stop the start with
 * invalid_config naming the variable. Registers a provider for this test file's process only.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { currentTraceparent, inSpan } from "@reelay/core/domain";
import { describe, expect, it } from "vitest";
import { startTracing } from "../src/otel.ts";

describe("startTracing", () => {
  it("refuses grpc and an endpoint that is not an http(s) URL, naming the variable", async () => {
    const base = { url: "http://127.0.0.1:4318/v1/traces", serviceName: "reelay" };
    await expect(startTracing({ ...base, protocol: "grpc" })).rejects.toMatchObject({
      code: "invalid_config",
      path: "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
    });
    await expect(
      startTracing({ ...base, url: "collector:4317", protocol: "http/protobuf" }),
    ).rejects.toMatchObject({ code: "invalid_config", path: "OTEL_EXPORTER_OTLP_ENDPOINT" });
  });

  it("by default posts the spans as OTLP protobuf to the traces URL, the last ones when it stops", async () => {
    const posts: { url: string | undefined; type: string | undefined; bytes: Buffer }[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        posts.push({
          url: request.url,
          type: request.headers["content-type"],
          bytes: Buffer.concat(chunks),
        });
        response.writeHead(200, { "content-type": "application/x-protobuf" }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const tracing = await startTracing({
        url: `http://127.0.0.1:${port}/v1/traces`,
        protocol: "http/protobuf",
        serviceName: "reelay-test",
      });
      const kept = await inSpan("submit", {}, async (span) => {
        span.noteJob({ id: "vidtsk_otel_test" });
        return currentTraceparent();
      });
      expect(kept).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      await tracing.stop();
      // Unregistered: what runs next in this process records nothing.
      expect(await inSpan("later", {}, async () => currentTraceparent())).toBeUndefined();
      expect(posts.map(({ url, type }) => `${url} ${type}`)).toEqual([
        "/v1/traces application/x-protobuf",
      ]);
      // Protobuf strings are stored as they are: the span's name, the job id and the service.
      const text = posts[0]?.bytes.toString("latin1") ?? "";
      for (const word of ["submit", "vidtsk_otel_test", "reelay-test", "reelay.job_id"])
        expect(text).toContain(word);
    } finally {
      server.close();
    }
  });
});
