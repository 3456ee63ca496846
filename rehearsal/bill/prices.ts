/**
 * AWS's public on-demand prices for the services a reelay deployment uses, for one region, with
 * the day they were read: the one place prices live (the AWS bill per 1,000 jobs, bill.ts, and
 * the bench's orchestration figure, bench/support/orchestration/pricing.ts, both price from here).
 * Each rate is the first tier of its service, with no free tier taken off (docs/performance.md,
 * "The AWS bill per 1,000 jobs").
 */

export const PRICES = {
  region: "us-east-1",
  /** When these were read from AWS's pricing pages (aws.amazon.com/<service>/pricing/). */
  readOn: "2026-11-28",
  stepFunctions: {
    /** Standard workflows: every state transition, retries included. */
    perTransitionUsd: 0.025 / 1_000,
  },
  lambda: {
    perRequestUsd: 0.2 / 1_000_000,
    /** Duration, first tier (the first 7.5 billion GB-s a month on arm64, 6 billion on x86_64). */
    perArmGbSecondUsd: 0.0000133334,
    perX86GbSecondUsd: 0.0000166667,
  },
  durableFunctions: {
    /** Every step, wait and the execution's start. */
    perOperationUsd: 8 / 1_000_000,
    perGbWrittenUsd: 0.25,
  },
  dynamodb: {
    /** On-demand request units (the November 2024 prices). */
    perWriteUnitUsd: 0.625 / 1_000_000,
    perReadUnitUsd: 0.125 / 1_000_000,
  },
  s3: {
    /** S3 Standard: PUT, COPY, POST and LIST requests (multipart parts included). */
    perTier1RequestUsd: 0.005 / 1_000,
    /** GET, SELECT and every other request but DELETE and CANCEL, which are free. */
    perTier2RequestUsd: 0.0004 / 1_000,
    /** Storage, first 50 TB a month. */
    perGbMonthUsd: 0.023,
  },
  eventBridge: {
    /** Custom events put on a bus, each 64 KB chunk one event; rule deliveries are free. */
    perEventUsd: 1 / 1_000_000,
  },
  ssm: {
    /** Standard parameters at standard throughput: no charge per API interaction. */
    perStandardReadUsd: 0,
    /** What a read costs once higher throughput is turned on. */
    perHigherThroughputReadUsd: 0.05 / 10_000,
  },
  apiGateway: {
    /** HTTP APIs, the first 300 million requests a month (each 512 KB counts as one). */
    perHttpRequestUsd: 1 / 1_000_000,
  },
  cloudWatchLogs: {
    /** Ingestion into Standard log groups (Lambda's vended logs: the first 10 TB tier). */
    perGbIngestedUsd: 0.5,
    /** Each log event is metered at its message's bytes plus this much. */
    eventOverheadBytes: 26,
  },
  xray: {
    perTraceRecordedUsd: 5 / 1_000_000,
  },
} as const;
