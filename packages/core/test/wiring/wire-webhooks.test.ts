/**
 * wireWebhooks chooses, once for every caller, where a delivery may go and what a replay targets:
 * on AWS https to public addresses only (loopback in the rehearsal), and a replay to every
 * subscriber only where the process holds the REELAY_WEBHOOKS subscribers.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import type { Deployment } from "../../src/domain/net/policy.ts";
import { wireWebhooks } from "../../src/wiring/wire-webhooks.ts";
import { caught } from "../adapters/upstream/rejection.ts";

// Never called: these tests read what the wiring chose, not the table.
const clients = { db: {} as DynamoDBDocumentClient, tableName: "never-read" };

function wired(platform: Deployment, rehearsal: boolean, subscribers?: []) {
  return wireWebhooks({
    config: { webhookSchedule: [0, 5], aws: { rehearsal } },
    platform,
    clients,
    ...(subscribers === undefined ? {} : { subscribers }),
  });
}

describe("wireWebhooks", () => {
  it("on AWS refuses a loopback receiver before sending, and names the deployment aws to the URL check of managed subscribers", async () => {
    const { deliveries, api } = wired("aws", false);
    const error = await caught(deliveries.fetch("http://127.0.0.1:9/hook"));
    expect(error.code).toBe("url_forbidden");
    expect(api.managed.deployment).toBe("aws");
  });

  it("in the rehearsal checks URLs as the local stack does: loopback receivers are reachable", async () => {
    const { deliveries, api } = wired("aws", true);
    expect(api.managed.deployment).toBe("local");
    // Nothing listens on port 9: the attempt is refused by the connection, not by the guard.
    const failure = await deliveries.fetch("http://127.0.0.1:9/hook").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as { code?: string }).code).not.toBe("url_forbidden");
  });

  it("gives a replay every subscriber only where the process holds the REELAY_WEBHOOKS list", () => {
    expect(wired("aws", false).api.targets).toBeUndefined();
    expect(wired("aws", false, []).api.targets).toBeTypeOf("function");
    expect(wired("local", false, []).api.schedule).toEqual([0, 5]);
  });
});
