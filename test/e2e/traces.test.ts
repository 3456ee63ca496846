/**
 * One job, one trace: `reelay up` run as a user runs it, with the standard OTEL_EXPORTER_OTLP_*
 * settings pointing at an OTLP/HTTP receiver this test starts (a plain node:http server reading the
 * exporter's JSON mode, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/json). One video job made through
 * the API reaches the receiver as one trace: the API request, submit, the wait for a slot, each
 * step, the upstream requests and the copy, every span naming the job.
 */
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { killChildren, startReady } from "./support/child-stack.ts";
import { freePort, tempDir, waitFor } from "./support/stack.ts";

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: { key: string; value: OtlpValue }[];
  status?: { code?: number };
}
interface OtlpExport {
  resourceSpans: {
    resource?: { attributes?: { key: string; value: OtlpValue }[] };
    scopeSpans: { spans?: OtlpSpan[] }[];
  }[];
}

const apiKey = `e2e_${randomBytes(12).toString("hex")}`;
let dataDir: string | undefined;
let receiver: Server | undefined;

afterAll(async () => {
  killChildren();
  receiver?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** An OTLP/HTTP traces receiver: every span posted to /v1/traces, and the service names seen. */
async function startReceiver(): Promise<{
  url: string;
  spans: OtlpSpan[];
  services: Set<string>;
  contentTypes: Set<string>;
}> {
  const spans: OtlpSpan[] = [];
  const services = new Set<string>();
  const contentTypes = new Set<string>();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      contentTypes.add(`${request.method} ${request.url} ${request.headers["content-type"]}`);
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpExport;
      for (const resourceSpans of body.resourceSpans) {
        const name = resourceSpans.resource?.attributes?.find((a) => a.key === "service.name");
        if (name?.value.stringValue !== undefined) services.add(name.value.stringValue);
        for (const scope of resourceSpans.scopeSpans) spans.push(...(scope.spans ?? []));
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver?.listen(0, "127.0.0.1", resolve));
  const { port } = receiver.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, spans, services, contentTypes };
}

function attribute(span: OtlpSpan, key: string): string | undefined {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  if (value === undefined) return undefined;
  return value.stringValue ?? (value.intValue === undefined ? undefined : String(value.intValue));
}

describe("traces from the local stack", () => {
  it("one job made through the API reaches an OTLP receiver as one trace holding the API request, submit, the queue, each step, the upstream requests and the copy, each span with reelay.job_id", async () => {
    const otlp = await startReceiver();
    dataDir = await tempDir("traces");
    const { url } = await startReady(
      {
        dataDir,
        args: ["--sim-time-scale", "0.05"],
        env: {
          REELAY_API_KEY: apiKey,
          OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
          OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
          OTEL_SERVICE_NAME: "reelay-e2e",
          // Batches sent every 200 ms rather than 5 s, so the test waits less.
          OTEL_BSP_SCHEDULE_DELAY: "200",
        },
      },
      await freePort(),
    );
    const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
    const created = (await (
      await fetch(`${url}/v1/video/generations`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          model: "gamma-3.1",
          prompt: "a lighthouse at dusk",
          duration_sec: 4,
        }),
      })
    ).json()) as { task_id: string };
    const jobId = created.task_id;
    expect(jobId).toMatch(/^vidtsk_/);
    await waitFor(
      `job ${jobId} to succeed`,
      async () => {
        const job = (await (await fetch(`${url}/v1/jobs/${jobId}`, { headers })).json()) as {
          status: string;
        };
        return job.status === "succeeded" ? true : undefined;
      },
      120_000,
    );
    const ofJob = () => otlp.spans.filter((span) => attribute(span, "reelay.job_id") === jobId);
    await waitFor(
      "the finish step's span to be exported",
      async () => (ofJob().some((span) => span.name === "step finish") ? true : undefined),
      30_000,
    );

    const spans = ofJob();
    const names = spans.map((span) => span.name);
    for (const name of [
      "POST /v1/video/generations",
      "submit",
      "queue",
      "step submit",
      "step poll",
      "step download",
      "step finish",
      "upstream create",
      "upstream get",
      "copy",
    ])
      expect(names, `a span named ${name}`).toContain(name);
    // One trace: every span naming the job is in the request's trace.
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    const [traceId] = spans.map((span) => span.traceId);
    expect(otlp.spans.filter((span) => span.traceId === traceId).length).toBe(spans.length);

    const byName = (name: string) => spans.find((span) => span.name === name) as OtlpSpan;
    const request = byName("POST /v1/video/generations");
    const submit = byName("submit");
    expect(request.parentSpanId ?? "").toBe("");
    expect(request.kind).toBe(2); // SERVER
    expect(attribute(request, "http.response.status_code")).toMatch(/^20[01]$/);
    expect(submit.parentSpanId).toBe(request.spanId);
    // The steps and the wait for a slot are children of submit, through the record's traceparent.
    for (const name of ["queue", "step submit", "step poll", "step download", "step finish"])
      expect(byName(name).parentSpanId, name).toBe(submit.spanId);
    const steps = new Map(spans.map((span) => [span.spanId, span.name]));
    expect(steps.get(byName("upstream create").parentSpanId ?? "")).toBe("step submit");
    expect(steps.get(byName("upstream get").parentSpanId ?? "")).toBe("step poll");
    expect(steps.get(byName("copy").parentSpanId ?? "")).toBe("step download");
    // The model and account are on the spans that know them; the queue's wait ends at admission.
    expect(attribute(byName("step submit"), "reelay.model")).toBe("gamma-3.1");
    expect(attribute(byName("upstream create"), "http.request.method")).toBe("POST");
    expect(attribute(byName("upstream create"), "url.path")).toBe("/v1/video/generations");
    const queue = byName("queue");
    expect(BigInt(queue.startTimeUnixNano) <= BigInt(queue.endTimeUnixNano)).toBe(true);
    expect(BigInt(queue.endTimeUnixNano) <= BigInt(byName("step submit").startTimeUnixNano)).toBe(
      true,
    );
    expect(otlp.services).toEqual(new Set(["reelay-e2e"]));
    expect(
      [...otlp.contentTypes].every((line) => line === "POST /v1/traces application/json"),
    ).toBe(true);
    // Nothing secret on a span: neither key, nor a presigned query.
    const text = JSON.stringify(otlp.spans);
    expect(text).not.toContain(apiKey);
    expect(text).not.toMatch(/X-Amz-Signature|sig=/);
  }, 300_000);
});
