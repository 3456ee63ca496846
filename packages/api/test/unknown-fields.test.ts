/**
 * Nothing silently dropped: reelay's own routes (keys, budgets, batches, webhooks) refuse a field
 * they do not know with 400 unknown_field naming it, and make nothing; the contract's routes keep
 * passing fields the upstream may know (a warning, as before).
 */
import { describe, expect, it } from "vitest";
import { call, sharedFullApp } from "./support/full-app.ts";
import { API_KEY, VALID } from "./support/harness.ts";

const app = sharedFullApp();

const refused = (answer: { status: number; body: Record<string, any> }, path: string) => {
  expect(answer.status).toBe(400);
  expect(answer.body.error).toMatchObject({ code: "unknown_field", path });
  expect(answer.body.error.message).toContain(path);
};

describe("unknown fields on reelay's own routes", () => {
  it("POST /v1/keys with a field it does not know is 400 unknown_field, and no key is made", async () => {
    const before = await call(app(), "GET", "/v1/keys", API_KEY);
    refused(await call(app(), "POST", "/v1/keys", API_KEY, { name: "n", colour: "red" }), "colour");
    refused(
      await call(app(), "POST", "/v1/keys", API_KEY, { budget: { amount: 5, per: "day" } }),
      "budget.per",
    );
    const after = await call(app(), "GET", "/v1/keys", API_KEY);
    expect(after.body.data).toHaveLength(before.body.data.length);
  });

  it("PUT /v1/keys/{id}/budget with a field a budget does not have is 400 unknown_field", async () => {
    const made = await call(app(), "POST", "/v1/keys", API_KEY, { name: "budgeted" });
    const answer = await call(app(), "PUT", `/v1/keys/${made.body.id}/budget`, API_KEY, {
      amount: 5,
      currency: "EUR",
    });
    refused(answer, "budget.currency");
  });

  it("POST /v1/batches (JSON form) with an unknown top-level field is refused whole; a request's own fields stay the contract's", async () => {
    refused(
      await call(app(), "POST", "/v1/batches", API_KEY, { requests: [VALID], callback: "x" }),
      "callback",
    );
    const listed = await call(app(), "GET", "/v1/batches", API_KEY);
    expect(listed.body.data).toEqual([]);
    const passed = await call(app(), "POST", "/v1/batches", API_KEY, {
      requests: [{ ...VALID, seed: 3 }],
    });
    expect(passed.status).toBe(200);
  });

  it("POST /v1/webhooks and POST /v1/events/{id}/replay refuse a field they do not know", async () => {
    refused(
      await call(app(), "POST", "/v1/webhooks", API_KEY, {
        url: "https://example.com/hook",
        secret: "mine",
      }),
      "secret",
    );
    const listed = await call(app(), "GET", "/v1/webhooks", API_KEY);
    expect(listed.body.data).toEqual([]);
    refused(
      await call(app(), "POST", "/v1/events/evt_01JD8Z9Q6W4S7Y3K2M1N0P5R8T/replay", API_KEY, {
        subscriber: "config:0",
        force: true,
      }),
      "force",
    );
  });

  it("a contract route still takes a field it does not define, with the unknown_field warning", async () => {
    const answer = await call(app(), "POST", "/v1/video/generations", API_KEY, {
      ...VALID,
      seed: 3,
    });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body)).toContain("unknown_field");
  });
});
