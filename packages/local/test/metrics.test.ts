/**
 * The local stack's Prometheus registry: one per stack, every catalog metric declared from the
 * start, the admission gauges read at each scrape, and a failed read leaving the counters served.
 */
import { describe, expect, it } from "vitest";
import type { AdmissionGauges } from "@reelay/core/usecases";
import { prometheusMetrics } from "../src/metrics.ts";

const GAUGES: AdmissionGauges = {
  reelay_queue_depth: 7,
  reelay_queue_oldest_age_seconds: 42.5,
  reelay_slots_in_use: 3,
  reelay_slots_limit: 8,
};

describe("prometheusMetrics", () => {
  it("keeps each stack's counts apart: two registries in one process never share a series", async () => {
    const a = prometheusMetrics();
    const b = prometheusMetrics();
    a.count("reelay_jobs_created_total", { model: "os-2" }, 2);
    b.count("reelay_jobs_created_total", { model: "os-2" });
    expect((await a.scrape()).text).toContain('reelay_jobs_created_total{model="os-2"} 2\n');
    expect((await b.scrape()).text).toContain('reelay_jobs_created_total{model="os-2"} 1\n');
  });

  it("writes counters, histograms with their buckets, and gauges in Prometheus text 0.0.4", async () => {
    const metrics = prometheusMetrics();
    metrics.count("reelay_jobs_failed_total", { model: "os-2", code: "timeout" });
    metrics.observe("reelay_detection_delay_seconds", { model: "os-2" }, 2.5);
    metrics.set("reelay_slots_limit", {}, 4);
    const { contentType, text } = await metrics.scrape();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toContain('reelay_jobs_failed_total{model="os-2",code="timeout"} 1\n');
    expect(text).toContain('reelay_detection_delay_seconds_bucket{le="2",model="os-2"} 0\n');
    expect(text).toContain('reelay_detection_delay_seconds_bucket{le="3",model="os-2"} 1\n');
    expect(text).toContain('reelay_detection_delay_seconds_sum{model="os-2"} 2.5\n');
    expect(text).toContain('reelay_detection_delay_seconds_count{model="os-2"} 1\n');
    expect(text).toContain("reelay_slots_limit 4\n");
  });

  it("reads the admission gauges at every scrape, and keeps serving the counters when the read fails", async () => {
    let reads = 0;
    let fail = false;
    const metrics = prometheusMetrics(async () => {
      reads++;
      if (fail) throw new Error("dynalite is restarting");
      return { ...GAUGES, reelay_queue_depth: GAUGES.reelay_queue_depth + reads };
    });
    metrics.count("reelay_copied_bytes_total", {}, 1000);
    expect((await metrics.scrape()).text).toContain("reelay_queue_depth 8\n");
    const second = (await metrics.scrape()).text;
    expect(second).toContain("reelay_queue_depth 9\n");
    expect(second).toContain("reelay_queue_oldest_age_seconds 42.5\n");
    expect(second).toContain("reelay_slots_in_use 3\n");
    expect(second).toContain("reelay_slots_limit 8\n");
    fail = true;
    const third = (await metrics.scrape()).text;
    expect(third).toContain("reelay_queue_depth 9\n");
    expect(third).toContain("reelay_copied_bytes_total 1000\n");
  });
});
