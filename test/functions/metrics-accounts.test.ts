/**
 * The `account` label on AWS: the EMF adapter publishes an account's upstream counts with its
 * account, with no dimension, and by `operation` alone (ALARM_DIMENSIONS), so the dashboard's
 * per-operation graphs still sum every account; each account's gauges carry their account.
 */
import { Metrics as PowertoolsMetrics } from "@aws-lambda-powertools/metrics";
import { afterAll, describe, expect, it, vi } from "vitest";
import { emfMetrics } from "../../functions/support/metrics.ts";
import { captureWrites, jsonLines } from "../support/written.ts";

const written = captureWrites();
afterAll(() => {
  vi.restoreAllMocks();
});

describe("EMF with the account label", () => {
  it("an account's upstream requests land by operation and account, by nothing, and by operation alone (two lines, no Powertools warning); its circuit by account", () => {
    const from = written.length;
    const metrics = emfMetrics(
      new PowertoolsMetrics({ namespace: "reelay", serviceName: "reelay" }),
      () => 1_700_000_000_000,
    );
    metrics.count("reelay_upstream_requests_total", { operation: "create", account: "alpha" }, 2);
    metrics.count("reelay_upstream_errors_total", { operation: "create", account: "alpha" });
    metrics.set("reelay_circuit_open", { account: "beta" }, 1);
    metrics.flush();
    const [requests, byOperation, circuit] = jsonLines(written, from);
    expect(requests).toMatchObject({
      operation: "create",
      account: "alpha",
      reelay_upstream_requests_total: 2,
      reelay_upstream_errors_total: 1,
    });
    expect(requests?._aws.CloudWatchMetrics[0].Dimensions).toEqual([["operation", "account"], []]);
    // The alarms' set on a line of its own: a label in two sets of one line makes Powertools warn.
    expect(byOperation).toEqual({
      _aws: {
        Timestamp: 1_700_000_000_000,
        CloudWatchMetrics: [
          {
            Namespace: "reelay",
            Dimensions: [["operation"]],
            Metrics: [
              { Name: "reelay_upstream_requests_total", Unit: "Count" },
              { Name: "reelay_upstream_errors_total", Unit: "Count" },
            ],
          },
        ],
      },
      operation: "create",
      reelay_upstream_requests_total: 2,
      reelay_upstream_errors_total: 1,
    });
    expect(circuit).toMatchObject({ account: "beta", reelay_circuit_open: 1 });
    expect(circuit?._aws.CloudWatchMetrics[0].Dimensions).toEqual([["account"], []]);
    expect(written.slice(from).join("")).not.toContain("EMF key");
  });
});
