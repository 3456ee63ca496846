/**
 * The OpenAPI document is what it was: moving where an operation is written (each API area keeps
 * its own) must not change a byte of what /openapi.json serves, nor of the full document the
 * client's types are generated from. A deliberate change to the document updates these digests.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wireWebhooks } from "@reelay/core/wiring";
import { buildOpenApiDocument } from "../src/openapi/document.ts";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { harness } from "./support/harness.ts";

const SERVED_SHA256 = "402b5255b78997c8ce951c4adcc9d980195bd1dc29470da53a06ea5aa47ec5f5";
const FULL_SHA256 = "031ab824f3f8dc4682bcd008edd443df7406e4e12946b9eda167bdc12211272d";

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
      webhooks: wireWebhooks({
        config: { webhookSchedule: [0], aws: { rehearsal: false } },
        platform: "aws",
        clients: { db: aws.ddb, tableName: "never-read" },
      }).api,
    });
    const response = await h.app.request("/openapi.json");
    expect(response.status).toBe(200);
    expect(sha256(await response.text())).toBe(SERVED_SHA256);
  });

  it("the full document (every documented operation, as the client's types are made from) is the one it was, in any key order", () => {
    expect(sha256(canonical(buildOpenApiDocument()))).toBe(FULL_SHA256);
  });
});
