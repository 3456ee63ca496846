/**
 * The `account` label on the local stack's metrics: a counter counted for an account is counted in
 * the deployment's series too, and each account's slots and circuit are read at the scrape.
 */
import { describe, expect, it } from "vitest";
import { prometheusMetrics } from "../src/metrics.ts";

describe("prometheusMetrics with accounts", () => {
  it("counts an account's upstream request under its account and in the series without one, which keeps the total", async () => {
    const metrics = prometheusMetrics();
    metrics.count("reelay_upstream_requests_total", { operation: "create", account: "alpha" }, 2);
    metrics.count("reelay_upstream_requests_total", { operation: "create", account: "beta" });
    metrics.count("reelay_upstream_requests_total", { operation: "download" });
    const { text } = await metrics.scrape();
    expect(text).toContain(
      'reelay_upstream_requests_total{operation="create",account="alpha"} 2\n',
    );
    expect(text).toContain('reelay_upstream_requests_total{operation="create",account="beta"} 1\n');
    expect(text).toContain('reelay_upstream_requests_total{operation="create"} 3\n');
    expect(text).toContain('reelay_upstream_requests_total{operation="download"} 1\n');
  });

  it("sets the totals unlabelled and each account's slots, limit and circuit with its name", async () => {
    const metrics = prometheusMetrics(async () => ({
      reelay_queue_depth: 5,
      reelay_queue_oldest_age_seconds: 3,
      reelay_slots_in_use: 6,
      reelay_slots_limit: 12,
      accounts: [
        { account: "alpha", reelay_slots_in_use: 4, reelay_slots_limit: 4, reelay_circuit_open: 0 },
        { account: "beta", reelay_slots_in_use: 2, reelay_slots_limit: 8, reelay_circuit_open: 1 },
      ],
    }));
    const { text } = await metrics.scrape();
    expect(text).toContain("reelay_slots_in_use 6\n");
    expect(text).toContain('reelay_slots_in_use{account="alpha"} 4\n');
    expect(text).toContain('reelay_slots_limit{account="beta"} 8\n');
    expect(text).toContain('reelay_circuit_open{account="alpha"} 0\n');
    expect(text).toContain('reelay_circuit_open{account="beta"} 1\n');
  });
});
