import { describe, expect, it } from "vitest";
import { newAuditRecord, withoutSecrets } from "../../../src/domain/audit/record.ts";
import { parseExpiresAt } from "../../../src/domain/keys/lifecycle.ts";

describe("audit records", () => {
  it("withoutSecrets drops secret-named fields and secret-shaped values at any depth", () => {
    expect(
      withoutSecrets({
        name: "ci",
        key: "anything",
        webhook_secret: "x",
        secrets: ["a"],
        api_key: "k",
        nested: { token: "t", note: "rk_abc", list: ["whsec_1", "plain"] },
        key_id: "key_01",
      }),
    ).toEqual({
      name: "ci",
      nested: { note: "[redacted]", list: ["[redacted]", "plain"] },
      key_id: "key_01",
    });
  });

  it("a new record has an aud_ id, the time, and its change without secrets", () => {
    const now = new Date("2026-11-27T10:00:00.000Z");
    const record = newAuditRecord(
      {
        action: "key.created",
        actor: { key_id: "local" },
        target: "key_1",
        change: { name: "n", key: "rk_x" },
      },
      now,
    );
    expect(record).toMatchObject({ at: now.toISOString(), change: { name: "n" } });
    expect(record.id).toMatch(/^aud_[0-9A-Z]{26}$/);
  });

  it("records made in one millisecond sort in the order they were made", () => {
    const now = new Date();
    const entry = { action: "key.revoked", actor: { key_id: "local" }, target: "k", change: {} };
    const ids = Array.from({ length: 50 }, () => newAuditRecord(entry as never, now).id);
    expect([...ids].sort()).toEqual(ids);
  });
});

describe("expires_at", () => {
  const now = new Date("2026-11-27T10:00:00.000Z");
  it("takes an ISO time with its zone in the future and answers it in UTC", () => {
    expect(parseExpiresAt("2026-11-28T12:00:00+02:00", now)).toBe("2026-11-28T10:00:00.000Z");
  });
  it("refuses a past time, a time without zone and one more than 10 years out", () => {
    for (const raw of ["2026-11-27T09:59:59Z", "2026-12-01T00:00:00", "2040-01-01T00:00:00Z"])
      expect(() => parseExpiresAt(raw, now), raw).toThrow(/expires_at/);
  });
});
