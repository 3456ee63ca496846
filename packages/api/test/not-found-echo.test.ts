/**
 * A 404 names what was not found without carrying a long id the caller chose back whole: the id
 * (or the path, for an unknown route) is quoted and cut short, so an answer stays small and plainly
 * marks where the caller's text begins and ends. A well-formed id is still given back in full.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { createApp } from "../src/app.ts";
import { API_KEY, freshTable, testApiDeps } from "./support/harness.ts";

/** Long, with a quote and a newline an unquoted message would pass on as they are. */
const LONG = `${"A".repeat(2_000)}"\n${"B".repeat(2_000)}`;
/** The most of the caller's text any answer below may repeat. */
const MAX_ECHO = 200;

let aws: LocalAws;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  aws = await startLocalAws();
  const tableName = await freshTable(aws, "echo");
  app = createApp(testApiDeps(aws, { tableName }).deps);
});
afterAll(() => aws.stop());

async function notFound(method: string, path: string) {
  const response = await app.request(path, {
    method,
    headers: { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json" },
    ...(method === "POST" ? { body: "{}" } : {}),
  });
  expect(response.status, `${method} ${path.slice(0, 40)}`).toBe(404);
  return { text: await response.text(), path };
}

/** The longest run of the caller's A's the answer repeats. */
function longestEcho(text: string): number {
  return Math.max(0, ...[...text.matchAll(/A+/g)].map((run) => run[0].length));
}

describe("a 404 for a long, attacker-chosen id", () => {
  const encoded = encodeURIComponent(LONG);
  const routes: [string, string][] = [
    ["GET", `/v1/jobs/${encoded}`],
    ["GET", `/v1/video/tasks/${encoded}`],
    ["GET", `/v1/image/tasks/${encoded}`],
    ["POST", `/v1/jobs/${encoded}/cancel`],
    ["POST", `/v1/jobs/${encoded}/retry`],
    ["DELETE", `/v1/keys/${encoded}`],
    ["GET", `/v1/no-such-route/${encoded}`],
  ];

  it("repeats at most a short, quoted start of it, on every route that answers 404", async () => {
    for (const [method, path] of routes) {
      const { text } = await notFound(method, path);
      const body = JSON.parse(text) as { error: { message: string; jobId?: string } };
      expect(longestEcho(text), `${method} ${path.slice(0, 30)}`).toBeLessThanOrEqual(MAX_ECHO);
      expect(text.length, `${method} ${path.slice(0, 30)}`).toBeLessThan(600);
      expect(body.error.message).toMatch(/"[^"]*A\.\.\."/);
      expect(body.error.jobId).toBeUndefined();
    }
  });

  it("still gives a well-formed job id back whole, quoted in the message and as jobId", async () => {
    const id = "vidtsk_01ARZ3NDEKTSV4RRFFQ69G5FAV";
    const { text } = await notFound("GET", `/v1/jobs/${id}`);
    expect(JSON.parse(text).error).toMatchObject({
      code: "job_not_found",
      message: `No job with id "${id}".`,
      jobId: id,
    });
  });
});
