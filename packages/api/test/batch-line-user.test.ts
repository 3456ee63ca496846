/**
 * A batch line's own `user`: taken out of the request like its own metadata, its job made for that
 * end user instead of the batch's, its waiting counted in that user's lane (user_limits
 * max_queued); a bad one rejects that line alone with invalid_user at `user`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { checkLines, parseBatchBody } from "../src/batch-body.ts";
import { API_KEY, harness, type Harness } from "./support/harness.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

type Json = Record<string, any>;

const REQUEST = { model: "gamma-3.1", prompt: "a paper boat", duration_sec: 4 };

async function call(h: Harness, method: string, path: string, key: string, body?: unknown) {
  const response = await h.app.request(path, {
    method,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

describe("a batch line's own user", () => {
  const source = { type: "api" as const };

  it("is taken out of the request onto the checked line, not warned about as a contract field", () => {
    const [own, none] = checkLines(
      parseBatchBody(JSON.stringify({ requests: [{ ...REQUEST, user: "u-line" }, REQUEST] })),
      source,
      {},
    );
    expect(own?.user).toBe("u-line");
    expect(own?.validation?.valid).toBe(true);
    expect(own?.validation?.warnings.map((w) => w.path)).not.toContain("user");
    expect(none?.user).toBeUndefined();
  });

  it("a bad one rejects that line alone with invalid_user at user", () => {
    const [bad, fine] = checkLines(
      parseBatchBody(JSON.stringify({ requests: [{ ...REQUEST, user: "a\u0007b" }, REQUEST] })),
      source,
      {},
    );
    expect(bad?.validation).toBeUndefined();
    expect(bad?.errors).toEqual([expect.objectContaining({ code: "invalid_user", path: "user" })]);
    expect(fine?.validation?.valid).toBe(true);
  });

  it("wins over the batch's: each job is made for its line's user, else the batch's", async () => {
    const h = await harness(aws);
    const made = await call(h, "POST", "/v1/batches", API_KEY, {
      user: "u-batch",
      requests: [{ ...REQUEST, user: "u-line" }, REQUEST, { ...REQUEST, user: "" }],
    });
    expect(made.status).toBe(200);
    expect(made.body.counts).toMatchObject({ rejected: 1 });
    const usersOf = async (user: string) =>
      ((await call(h, "GET", `/v1/jobs?user=${user}`, API_KEY)).body.data as Json[]).map(
        (job) => job.user,
      );
    expect(await usersOf("u-line")).toEqual(["u-line"]);
    expect(await usersOf("u-batch")).toEqual(["u-batch"]);
  });

  it("counts its job among its own user's waiting jobs (user_limits max_queued), not the batch's", async () => {
    const h = await harness(aws);
    const key = await call(h, "POST", "/v1/keys", API_KEY, { user_limits: { max_queued: 1 } });
    expect(key.status).toBe(201);
    const batch = (requests: unknown[]) =>
      call(h, "POST", "/v1/batches", key.body.key as string, { requests });
    // One waiting job each for u-a and u-b: each within its own limit of 1.
    const first = await batch([
      { ...REQUEST, user: "u-a" },
      { ...REQUEST, user: "u-b" },
    ]);
    expect(first.status).toBe(200);
    // u-a has its one waiting job: another is refused whole, while u-c's goes through.
    const again = await batch([
      { ...REQUEST, user: "u-c" },
      { ...REQUEST, user: "u-a" },
    ]);
    expect(again.status).toBe(429);
    expect(again.body.error).toMatchObject({ code: "queue_full" });
    expect((await batch([{ ...REQUEST, user: "u-c" }])).status).toBe(200);
  });
});
