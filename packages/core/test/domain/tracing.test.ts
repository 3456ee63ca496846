/**
 * Without an SDK (the Lambda functions, a local stack without an OTLP endpoint) the spans cost
 * nothing and leave nothing behind: no traceparent on a record, the work's own result or error.
 */
import { describe, expect, it } from "vitest";
import { currentTraceparent, inSpan, recordSpan, startSpan } from "../../src/domain/tracing.ts";

describe("tracing with no SDK registered", () => {
  it("runs the work and hands back its result or its error, with no traceparent to keep", async () => {
    const result = await inSpan(
      "submit",
      { parent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" },
      async (span) => {
        span.noteJob({ id: "vidtsk_01", model: "gamma-3.1" });
        span.set({ "reelay.copy.bytes": 1 });
        return currentTraceparent();
      },
    );
    expect(result).toBeUndefined();
    await expect(
      inSpan("step poll", {}, async () => {
        throw Object.assign(new Error("boom"), { code: "upstream_rate_limited" });
      }),
    ).rejects.toThrow("boom");
    recordSpan("queue", { startTime: 0, endTime: 1, parent: "not a traceparent" });
    const span = startSpan("upstream get", { kind: "client" });
    span.end(new Error("reset"));
  });
});
