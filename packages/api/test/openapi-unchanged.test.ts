/**
 * The OpenAPI document is what it was: moving where an operation is written (each API area keeps
 * its own) must not change a byte of what /openapi.json serves, nor of the full document the
 * client's types are generated from. A deliberate change to the document updates these digests.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DeliveryStore, SubscriberStore } from "@reelay/core/adapters";
import { buildOpenApiDocument } from "../src/openapi/document.ts";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { harness } from "./support/harness.ts";

const SERVED_SHA256 = "c3c4e6e4c9479b00d12666c740d72ce1cb93205928305b7a0c4a0e5c84711836";
const FULL_SHA256 = "d0e236ace7cf48393127cc9d0ffb63419f79d8b51807ff213ff99d75889bf00a";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** JSON with every object's keys sorted: the full document's order follows where operations are written. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

describe("the OpenAPI document", () => {
  it("/openapi.json of an app serving every route is byte for byte the document it was", async () => {
    const h = await harness(aws, {
      eventStream: { subscribe: () => () => undefined },
      scrape: async () => ({ contentType: "text/plain", text: "" }),
      mcp: async () => new Response(null, { status: 204 }),
      webhooks: {
        store: new DeliveryStore(aws.ddb, "deliveries-never-read"),
        schedule: [0],
        now: () => new Date(),
        managed: { store: new SubscriberStore(aws.ddb, "never-read"), deployment: "aws" },
      },
    });
    const response = await h.app.request("/openapi.json");
    expect(response.status).toBe(200);
    expect(sha256(await response.text())).toBe(SERVED_SHA256);
  });

  it("the full document (every documented operation, as the client's types are made from) is the one it was, in any key order", () => {
    expect(sha256(canonical(buildOpenApiDocument()))).toBe(FULL_SHA256);
  });
});
