/**
 * The AWS bill per 1,000 jobs (rehearsal/bill/): known usage in, known dollars out per service, at
 * the prices of the one module that holds them; and the bench's orchestration pricing reading the
 * same rates.
 */
import { describe, expect, it } from "vitest";
import { costUsd } from "../../bench/support/orchestration/pricing.ts";
import {
  billPer1000Jobs,
  type FlowUsage,
  type RehearsedJob,
  SERVICES,
} from "../../rehearsal/bill/bill.ts";
import { PRICES } from "../../rehearsal/bill/prices.ts";

const job: RehearsedJob = {
  calls: {
    dynamoReadUnits: 8,
    dynamoWriteUnits: 6,
    s3Tier1Requests: 10,
    s3Tier2Requests: 4,
    ssmReads: 2,
    events: 1,
  },
  callsPerLook: {
    dynamoReadUnits: 1.5,
    dynamoWriteUnits: 2,
    s3Tier1Requests: 0,
    s3Tier2Requests: 0,
    ssmReads: 0,
    events: 0,
  },
  lambda: { requests: 4, armGbSeconds: 1, x86GbSeconds: 0 },
  logs: { bytes: 10_000, events: 100 },
  logsPerStepInvocation: { bytes: 1_000, events: 10 },
  logsPerTransition: { bytes: 500, events: 2 },
  apiRequests: 2,
  storedBytes: 8 * 1024 ** 2,
  traces: 3,
};

const flow: FlowUsage = {
  transitions: 10,
  invocations: 6,
  armGbSeconds: 2,
  x86GbSeconds: 4,
  looks: 5,
};

function byService(bill: ReturnType<typeof billPer1000Jobs>): Record<string, number> {
  return Object.fromEntries(bill.lines.map((l) => [l.service, l.usd]));
}

describe("the AWS bill per 1,000 jobs", () => {
  it("prices each service from the usage per job, in us-east-1 at the prices read", () => {
    expect(PRICES.region).toBe("us-east-1");
    expect(PRICES.readOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const bill = billPer1000Jobs(job, flow);
    expect(bill.lines.map((l) => l.service)).toEqual([...SERVICES]);
    const usd = byService(bill);
    // 10 transitions x $0.025 per 1,000.
    expect(usd["Step Functions"]).toBeCloseTo(0.25, 10);
    // 10 requests x $0.20 per million; 3 GB-s arm64 x $0.0000133334; 4 GB-s x86_64 x $0.0000166667.
    expect(usd.Lambda).toBeCloseTo(0.002 + 0.0400002 + 0.0666668, 10);
    expect(usd["Lambda durable functions"]).toBe(0);
    // Reads 8 + 1.5 x 5 looks = 15.5 at $0.125 per million; writes 6 + 2 x 5 = 16 at $0.625.
    expect(usd.DynamoDB).toBeCloseTo(0.0019375 + 0.01, 10);
    // 10 PUT-class at $0.005 per 1,000; 4 GET-class at $0.0004 per 1,000.
    expect(usd["S3 requests"]).toBeCloseTo(0.05 + 0.0016, 10);
    // 8 MiB for a month at $0.023 per GB.
    expect(usd["S3 storage"]).toBeCloseTo((8 / 1024) * 0.023 * 1000, 10);
    expect(usd.EventBridge).toBeCloseTo(0.001, 10);
    expect(usd.SSM).toBe(0);
    expect(usd["API Gateway"]).toBeCloseTo(0.002, 10);
    // 10,000 + 1,000 x 6 invocations + 500 x 10 transitions = 21,000 bytes in 180 events (+26 B each).
    expect(usd["CloudWatch Logs"]).toBeCloseTo(((21_000 + 180 * 26) / 1024 ** 3) * 0.5 * 1000, 10);
    expect(usd["X-Ray"]).toBeCloseTo(0.015, 10);
    const sum = Object.values(usd).reduce((a, b) => a + b, 0);
    expect(bill.totalUsd).toBeCloseTo(sum, 12);
    expect(bill.totalUsd).toBeCloseTo(0.63185, 5);
  });

  it("adds a durable poller's operations and checkpoint bytes, and no transitions", () => {
    const usd = byService(
      billPer1000Jobs(job, {
        ...flow,
        transitions: 0,
        durableOperations: 20,
        durableBytesWritten: 1024 ** 2,
      }),
    );
    expect(usd["Step Functions"]).toBe(0);
    // 20 operations at $8 per million; 1 MiB a job (1,000 MiB) written at $0.25 per GB.
    expect(usd["Lambda durable functions"]).toBeCloseTo(0.16 + (1000 / 1024) * 0.25, 10);
  });

  it("gives the bench's orchestration figure the same rates", () => {
    const cost = costUsd({
      transitions: 1000,
      invocations: 1_000_000,
      gbSeconds: 1,
      x86GbSeconds: 1,
    });
    expect(cost.transitions).toBeCloseTo(1000 * PRICES.stepFunctions.perTransitionUsd, 12);
    expect(cost.requests).toBeCloseTo(0.2, 12);
    expect(cost.duration).toBeCloseTo(PRICES.lambda.perX86GbSecondUsd, 12);
  });
});
