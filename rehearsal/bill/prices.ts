/**
 * AWS's public on-demand prices for the services a reelay deployment uses, for one region, with
 * the day they were read: the one place prices live (the AWS bill per 1,000 jobs, bill.ts, and
 * the bench's orchestration figure, bench/support/orchestration/pricing.ts, both price from here).
 * Each rate is the first tier of its service, with no free tier taken off (docs/performance.md,
 * "The AWS bill per 1,000 jobs"). The monthly charges a stage makes with no job at all (the idle
 * cost, idle.ts: alarms, dashboards, custom metrics, keys, advanced parameters, stored bytes) were
 * not read from those pages: they are the list prices as known on `monthlyNotedOn` (each marked "as known"), written down
 * where there was no internet to read them; check them against the pages before relying on them.
 */

export const PRICES = {
  region: "us-east-1",
  /** When these were read from AWS's pricing pages (aws.amazon.com/<service>/pricing/). */
  readOn: "2026-11-28",
  /** When the rates marked "as known" were written down from the list prices known then, unread. */
  monthlyNotedOn: "2026-11-29",
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
    /** Monthly, as known: table storage (Standard table class; its first 25 GB free not taken off). */
    perGbMonthStoredUsd: 0.25,
    /** Monthly, as known: point-in-time recovery (continuous backups), by the table's size. */
    perGbMonthPitrUsd: 0.2,
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
    /** As known: a scheduled rule's run (rate or cron): scheduled rules are free. */
    perScheduledRunUsd: 0,
  },
  ssm: {
    /** Standard parameters at standard throughput: no charge per API interaction. */
    perStandardReadUsd: 0,
    /** What a read costs once higher throughput is turned on. */
    perHigherThroughputReadUsd: 0.05 / 10_000,
    /** Monthly, as known: standard parameters are free; an advanced one, a month. */
    perStandardParameterMonthUsd: 0,
    perAdvancedParameterMonthUsd: 0.05,
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
    /** Monthly, as known: storage (archived, metered compressed), per GB a month. */
    perGbMonthStoredUsd: 0.03,
  },
  cloudWatch: {
    /** Monthly, as known: an alarm of 60 s periods or longer, per metric it evaluates. */
    perStandardAlarmMetricMonthUsd: 0.1,
    /** As known: an alarm of 10 s or 30 s periods (high resolution), per metric it evaluates. */
    perHighResolutionAlarmMetricMonthUsd: 0.3,
    /** As known: a dashboard a month; an account's first 3 (up to 50 metrics each) are free. */
    perDashboardMonthUsd: 3,
    /**
     * As known: a custom metric (each name and set of dimension values, the embedded metric
     * format's included), the first 10,000 a month; prorated by the hours it is published in.
     */
    perMetricMonthUsd: 0.3,
  },
  kms: {
    /**
     * Monthly, as known: a customer managed key. Automatic rotation adds $1 a month for each of
     * the first two rotations (a year apart): $1 the first year, $2 the second, $3 after.
     */
    perKeyMonthUsd: 1,
  },
  xray: {
    perTraceRecordedUsd: 5 / 1_000_000,
  },
} as const;
