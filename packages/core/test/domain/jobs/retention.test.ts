/** Retention's arithmetic: the tag an output is written with, its expiry and its record's, and how long a link may live. */
import { describe, expect, it } from "vitest";
import {
  expiryOf,
  linkTtlS,
  MAX_RETENTION_DAYS,
  outputsExpired,
  RECORD_KEPT_DAYS,
  RETENTION_TAG,
  RETENTION_TAG_DAYS,
  retentionTagDays,
  retentionTags,
} from "../../../src/domain/jobs/retention.ts";

const DAY_MS = 86_400_000;
const STORED = new Date("2026-11-27T12:00:00.000Z");

describe("the retention tag", () => {
  it("is the smallest rule's day count that keeps the output its whole retention, never shorter", () => {
    expect(retentionTagDays(0.0001)).toBe(1);
    expect(retentionTagDays(1)).toBe(1);
    expect(retentionTagDays(1.01)).toBe(2);
    expect(retentionTagDays(30)).toBe(30);
    expect(retentionTagDays(31)).toBe(45);
    expect(retentionTagDays(366)).toBe(730);
    expect(retentionTagDays(MAX_RETENTION_DAYS)).toBe(MAX_RETENTION_DAYS);
    for (let days = 0.5; days <= MAX_RETENTION_DAYS; days += 7.3) {
      const tag = retentionTagDays(days);
      expect(RETENTION_TAG_DAYS).toContain(tag);
      expect(tag).toBeGreaterThanOrEqual(days);
    }
  });

  it("is on an output of a job with a retention, and there is none on one kept for good", () => {
    expect(retentionTags({ retentionDays: 7 })).toEqual({ [RETENTION_TAG]: "7" });
    expect(retentionTags({})).toBeUndefined();
  });
});

describe("expiries", () => {
  it("expires_at is retention_days after the outputs were stored, and the record goes RECORD_KEPT_DAYS later", () => {
    const { expiresAt, recordTtl } = expiryOf({ retentionDays: 0.5 }, STORED);
    expect(expiresAt).toBe("2026-11-28T00:00:00.000Z");
    expect(recordTtl).toBe(
      (Date.parse("2026-11-28T00:00:00.000Z") + RECORD_KEPT_DAYS * DAY_MS) / 1000,
    );
    expect(expiryOf({}, STORED)).toEqual({});
  });

  it("outputs are expired from expires_at on, never for a job kept for good", () => {
    const job = { expiresAt: "2026-11-28T00:00:00.000Z" };
    expect(outputsExpired(job, new Date("2026-11-27T23:59:59.999Z"))).toBe(false);
    expect(outputsExpired(job, new Date("2026-11-28T00:00:00.000Z"))).toBe(true);
    expect(outputsExpired({}, new Date("2100-01-01T00:00:00.000Z"))).toBe(false);
  });

  it("a link lives the link TTL, cut to expires_at, and not at all after it", () => {
    const job = { expiresAt: "2026-11-27T12:10:00.000Z" };
    expect(linkTtlS(job, 3600, STORED)).toBe(600);
    expect(linkTtlS(job, 60, STORED)).toBe(60);
    expect(linkTtlS(job, 3600, new Date("2026-11-27T12:10:00.000Z"))).toBe(0);
    expect(linkTtlS(job, 3600, new Date("2026-11-28T00:00:00.000Z"))).toBe(0);
    expect(linkTtlS({}, 3600, STORED)).toBe(3600);
  });
});
