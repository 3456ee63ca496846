/**
 * `reelay top`'s arithmetic: Prometheus text parsed into samples, and a screen from the scrapes of
 * the window: gauges from the newest, counters' increases over the window as rates a minute, a
 * counter that went down (the stack restarted) read as a reset.
 */
import { describe, expect, it } from "vitest";
import { topFrame } from "../src/top/frame.ts";
import { parseMetrics } from "../src/top/scrape.ts";

function scrape(at: number, lines: string[]) {
  return parseMetrics(`# HELP x y\n# TYPE x counter\n${lines.join("\n")}\n`, at);
}

describe("parseMetrics", () => {
  it("reads names, labels (with escapes) and values, and skips comments and blank lines", () => {
    const parsed = parseMetrics(
      '# HELP a b\nreelay_jobs_failed_total{model="os-2",code="a\\"b"} 3\n\nreelay_slots_limit 8\nreelay_x_bucket{le="+Inf"} 1\n',
      5,
    );
    expect(parsed).toEqual({
      at: 5,
      samples: [
        { name: "reelay_jobs_failed_total", labels: { model: "os-2", code: 'a"b' }, value: 3 },
        { name: "reelay_slots_limit", labels: {}, value: 8 },
        { name: "reelay_x_bucket", labels: { le: "+Inf" }, value: 1 },
      ],
    });
  });
});

describe("topFrame", () => {
  const first = scrape(0, [
    'reelay_jobs_succeeded_total{model="os-2"} 10',
    'reelay_jobs_failed_total{model="os-2",code="timeout"} 1',
    'reelay_upstream_requests_total{operation="get"} 100',
    'reelay_upstream_429_total{operation="create"} 0',
  ]);
  const last = scrape(120_000, [
    'reelay_jobs_created_total{model="os-2"} 40',
    'reelay_jobs_succeeded_total{model="os-2"} 30',
    'reelay_jobs_succeeded_total{model="gamma-3.1"} 4',
    'reelay_jobs_failed_total{model="os-2",code="timeout"} 3',
    'reelay_jobs_failed_total{model="gamma-3.1",code="upstream_task_failed"} 2',
    'reelay_jobs_cancelled_total{model="os-2"} 1',
    'reelay_upstream_requests_total{operation="get"} 180',
    'reelay_upstream_requests_total{operation="create"} 20',
    'reelay_upstream_429_total{operation="create"} 5',
    "reelay_slots_in_use 6",
    "reelay_slots_limit 8",
    "reelay_queue_depth 12",
    "reelay_queue_oldest_age_seconds 90",
  ]);

  it("one scrape: the gauges and the totals since start, no rates", () => {
    expect(topFrame([last])).toEqual({
      inFlight: 6,
      slotsLimit: 8,
      queued: 12,
      oldestQueuedS: 90,
      sinceStart: { created: 40, succeeded: 34, failed: 5, cancelled: 1 },
      failuresSinceStart: { timeout: 3, upstream_task_failed: 2 },
      window: null,
    });
  });

  it("two scrapes 2 minutes apart: rates a minute over the window, the 429 share of requests, failures by code in the window", () => {
    expect(topFrame([first, last]).window).toEqual({
      windowS: 120,
      // 24 succeeded, 4 failed, 1 cancelled in 2 minutes.
      finishedPerMin: 14.5,
      succeededPerMin: 12,
      failedPerMin: 2,
      // 100 requests, 5 of them answered 429.
      requestsPerMin: 50,
      rateLimitedPerMin: 2.5,
      rateLimitedShare: 0.05,
      failures: { timeout: 2, upstream_task_failed: 2 },
      detection: null,
      endToEnd: null,
    });
  });

  it("detection and end-to-end p50 and p95 from the histogram buckets' increases over the window, as histogram_quantile() reads them", () => {
    const buckets = (at: number, counts: [string, number][]) =>
      scrape(
        at,
        counts.flatMap(([le, n]) => [
          `reelay_detection_delay_seconds_bucket{le="${le}",model="os-2"} ${n}`,
          `reelay_detection_delay_seconds_bucket{le="${le}",model="gamma-3.1"} ${n}`,
        ]),
      );
    const before = buckets(0, [
      ["1", 5],
      ["2", 5],
      ["5", 5],
      ["+Inf", 5],
    ]);
    // 20 more in the window, both models: 4 under 1 s, 8 in (1, 2], 6 in (2, 5], 2 above 5 s.
    const after = buckets(60_000, [
      ["1", 7],
      ["2", 11],
      ["5", 14],
      ["+Inf", 15],
    ]);
    // p50: rank 10 of 20, in (1, 2] with 4 below and 8 in it: 1 + 6/8. p95: rank 19, above 5 s.
    expect(topFrame([before, after]).window?.detection).toEqual({ p50: 1.75, p95: 5 });
    expect(topFrame([before, after]).window?.endToEnd).toBeNull();
  });

  it("a counter lower than before (the stack restarted) counts its new value as the increase", () => {
    const restarted = scrape(60_000, ['reelay_jobs_succeeded_total{model="os-2"} 3']);
    expect(topFrame([first, restarted]).window?.succeededPerMin).toBe(3);
  });
});
