/**
 * The metrics port: typed on the catalog (a wrong name or label does not compile), a no-op default,
 * and what core records for a job's end, a detection and a copy.
 */
import { describe, expect, it } from "vitest";
import type { Job } from "../../../src/domain/jobs/types.ts";
import {
  recordCopy,
  recordDetection,
  recordJobEnd,
} from "../../../src/usecases/metrics/record-metrics.ts";
import { type Metrics, noMetrics } from "../../../src/usecases/ports.ts";
import { recordingMetrics } from "../../support/recording-metrics.ts";

function ended(status: Job["status"], extra: Partial<Job> = {}): Job {
  return {
    id: "vidtsk_01ARZ3NDEKTSV4RRFFQ69G5FAV",
    kind: "video",
    status,
    model: "os-2",
    mode: "text",
    request: { model: "os-2", prompt: "a" },
    warnings: [],
    source: { type: "api" },
    idempotencyKey: "k",
    attempts: 1,
    polls: 3,
    createdAt: "2026-11-25T10:00:00.000Z",
    updatedAt: "2026-11-25T10:01:30.000Z",
    finishedAt: "2026-11-25T10:01:30.000Z",
    history: [],
    ...extra,
  };
}

describe("the Metrics port", () => {
  it("accepts only the catalog's names, each with exactly its labels (checked by tsc)", () => {
    const metrics: Metrics = noMetrics;
    metrics.count("reelay_jobs_failed_total", { model: "os-2", code: "timeout" });
    metrics.observe("reelay_detection_delay_seconds", { model: "os-2" }, 1);
    metrics.set("reelay_queue_depth", {}, 3);
    // @ts-expect-error: not in the catalog
    metrics.count("reelay_jobs_lost_total", {});
    // @ts-expect-error: a failure needs its code
    metrics.count("reelay_jobs_failed_total", { model: "os-2" });
    // @ts-expect-error: no label "key" (API keys are never labels)
    metrics.count("reelay_jobs_created_total", { model: "os-2", key: "k" });
    // @ts-expect-error: a histogram is observed, not counted
    metrics.count("reelay_job_duration_seconds", { model: "os-2" });
    // @ts-expect-error: a gauge is set, not observed
    metrics.observe("reelay_slots_in_use", {}, 1);
    expect(metrics).toBe(noMetrics);
  });

  it("noMetrics records nothing and never throws", () => {
    expect(() => {
      noMetrics.count("reelay_copied_bytes_total", {}, 5);
      noMetrics.observe("reelay_copy_throughput_bytes_per_second", {}, 5);
      noMetrics.set("reelay_slots_limit", {}, 5);
    }).not.toThrow();
  });
});

describe("recordJobEnd", () => {
  it("counts a succeeded, a cancelled and a failed job by model, the failure by its error.code, each with its time from creation", () => {
    const metrics = recordingMetrics();
    recordJobEnd(metrics, ended("succeeded"));
    recordJobEnd(metrics, ended("cancelled"));
    recordJobEnd(metrics, ended("failed", { error: { code: "timeout", message: "late" } }));
    expect(metrics.recorded).toEqual([
      { kind: "count", name: "reelay_jobs_succeeded_total", labels: { model: "os-2" }, value: 1 },
      {
        kind: "observe",
        name: "reelay_job_duration_seconds",
        labels: { model: "os-2" },
        value: 90,
      },
      { kind: "count", name: "reelay_jobs_cancelled_total", labels: { model: "os-2" }, value: 1 },
      {
        kind: "observe",
        name: "reelay_job_duration_seconds",
        labels: { model: "os-2" },
        value: 90,
      },
      {
        kind: "count",
        name: "reelay_jobs_failed_total",
        labels: { model: "os-2", code: "timeout" },
        value: 1,
      },
      {
        kind: "observe",
        name: "reelay_job_duration_seconds",
        labels: { model: "os-2" },
        value: 90,
      },
    ]);
  });

  it("records nothing for a job still in progress", () => {
    const metrics = recordingMetrics();
    recordJobEnd(metrics, ended("running"));
    expect(metrics.recorded).toEqual([]);
  });
});

describe("recordDetection", () => {
  it("times the look that saw the task done from the last look that saw it running, else from the create", () => {
    const metrics = recordingMetrics();
    const job = { model: "os-2", submittedAt: "2026-11-25T10:00:00.000Z" };
    recordDetection(metrics, job, {
      runningSeenAt: "2026-11-25T10:00:40.000Z",
      doneSeenAt: new Date("2026-11-25T10:00:42.500Z"),
    });
    recordDetection(metrics, job, { doneSeenAt: new Date("2026-11-25T10:00:30.000Z") });
    expect(metrics.recorded.map((r) => [r.name, r.labels, r.value])).toEqual([
      ["reelay_detection_delay_seconds", { model: "os-2" }, 2.5],
      ["reelay_detection_delay_seconds", { model: "os-2" }, 30],
    ]);
  });
});

describe("recordCopy", () => {
  it("adds the bytes and observes bytes per second; an empty copy adds no throughput", () => {
    const metrics = recordingMetrics();
    recordCopy(metrics, 4_000_000, 2000);
    recordCopy(metrics, 0, 5);
    expect(metrics.recorded.map((r) => [r.kind, r.name, r.value])).toEqual([
      ["count", "reelay_copied_bytes_total", 4_000_000],
      ["observe", "reelay_copy_throughput_bytes_per_second", 2_000_000],
      ["count", "reelay_copied_bytes_total", 0],
    ]);
  });
});
