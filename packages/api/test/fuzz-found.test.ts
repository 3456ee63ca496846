/**
 * Regressions for what the route fuzz (test/fuzz/api.fuzz.test.ts) found: each was a 5xx, or an
 * unhandled rejection, for a client mistake. Here in-process with app.request over real dynalite.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import type { Caller } from "../src/index.ts";
import { serveApp } from "../src/serve.ts";
import { sendRaw } from "../../../test/fuzz/support/http.ts";
import { API_KEY, auth, harness, json, type Harness } from "./support/harness.ts";

const OTHER_KEY = "another-callers-key";

let aws: LocalAws;
let h: Harness;
beforeAll(async () => {
  aws = await startLocalAws();
  const authenticate = async (token: string): Promise<Caller | undefined> =>
    token === API_KEY
      ? { keyId: "local" }
      : token === OTHER_KEY
        ? { keyId: "key_other" }
        : undefined;
  h = await harness(aws, { authenticate });
});
afterAll(() => aws.stop());

type ErrorAnswer = {
  error: {
    code: string;
    message: string;
    path?: string;
    errors?: { code: string; path: string }[];
  };
};

async function answer(response: Response): Promise<{ status: number; body: ErrorAnswer }> {
  return { status: response.status, body: (await response.json()) as ErrorAnswer };
}

describe("found by fuzzing the routes", () => {
  it("a stored key asking for a job id with a malformed escape (%FF%FE) gets 404, not a 500 from decodeURIComponent", async () => {
    for (const path of ["/v1/jobs/%FF%FE", "/v1/video/tasks/%E0%A4%A", "/v1/image/tasks/%C0"]) {
      const { status, body } = await answer(
        await h.app.request(path, { headers: { Authorization: `Bearer ${OTHER_KEY}` } }),
      );
      expect(status, path).toBe(404);
      expect(body.error.code).toBe("job_not_found");
    }
  });

  it("ids too long for a DynamoDB key answer 404 job_not_found on every id route, not 503", async () => {
    const long = "x".repeat(3_000);
    const calls: [string, string][] = [
      ["GET", `/v1/jobs/${long}`],
      ["GET", `/v1/video/tasks/${long}`],
      ["GET", `/v1/image/tasks/${long}`],
      ["POST", `/v1/jobs/${long}/cancel`],
    ];
    for (const [method, path] of calls) {
      for (const key of [API_KEY, OTHER_KEY]) {
        const { status, body } = await answer(
          await h.app.request(path, { method, headers: { Authorization: `Bearer ${key}` } }),
        );
        expect(status, `${method} ${path.slice(0, 30)}`).toBe(404);
        expect(body.error.code).toBe("job_not_found");
      }
    }
  });

  it("a cursor whose sort key is not <createdAt>#<id> is 400 invalid_cursor (a 3000-character one was a 503)", async () => {
    const id = "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T";
    for (const sk of [`${"9".repeat(3_000)}#${id}`, `x#${id}`, `2026-11-22T00:00:00.000Z#${id}x`]) {
      const cursor = Buffer.from(JSON.stringify([id, sk])).toString("base64url");
      const { status, body } = await answer(await h.get(`/v1/jobs?cursor=${cursor}`));
      expect(status, sk.slice(0, 30)).toBe(400);
      expect(body.error).toMatchObject({ code: "invalid_cursor", path: "cursor" });
    }
  });

  it("a cursor the listing returned still works", async () => {
    for (let i = 0; i < 3; i += 1) await h.post({ model: "gamma-3.1", prompt: `boat ${i}` });
    const first = (await (await h.get("/v1/jobs?limit=2")).json()) as {
      next_cursor: string | null;
    };
    expect(first.next_cursor).not.toBeNull();
    expect((await h.get(`/v1/jobs?limit=2&cursor=${first.next_cursor}`)).status).toBe(200);
  });

  it("a valid request too large for a job record is 400 request_too_large naming the field, not a 503", async () => {
    const video = await answer(await h.post({ model: "gamma-3.1", prompt: "x".repeat(900_000) }));
    expect(video.status).toBe(400);
    expect(video.body.error.errors).toEqual([
      expect.objectContaining({ code: "request_too_large", path: "prompt" }),
    ]);
    const messages = Array.from({ length: 5_000 }, () => ({
      role: "user",
      content: "x".repeat(100),
    }));
    const image = await answer(
      await h.app.request("/v1/chat/completions", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ model: "deltaq2-image", messages, modalities: ["image"] }),
      }),
    );
    expect(image.status).toBe(400);
    expect(image.body.error.errors).toEqual([
      expect.objectContaining({ code: "request_too_large", path: "messages" }),
    ]);
  });

  it("an image request with a 200 KB aspect_ratio is made with a short warning, not a 503 from a record holding it twice", async () => {
    const body = {
      model: "deltaq2-image",
      messages: [{ role: "user", content: "a lighthouse" }],
      modalities: ["image"],
      image_config: { aspect_ratio: "x".repeat(200_000) },
    };
    const response = await h.app.request("/v1/chat/completions", {
      method: "POST",
      headers: json,
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as {
      warnings?: { path: string; message: string }[];
      error?: unknown;
    };
    expect(response.status, JSON.stringify(answer).slice(0, 300)).toBe(200);
    const warning = answer.warnings?.find((w) => w.path === "image_config.aspect_ratio");
    expect(warning?.message.length).toBeLessThan(600);
  });

  it("over HTTP, what Node's parser refuses before the app (a broken request, a 20 KB head) is JSON with a code, not bare text", async () => {
    const server = await serveApp(h.app);
    try {
      const broken = await sendRaw(
        server.url,
        "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
      );
      expect(broken.status).toBe(400);
      expect(broken.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(broken.body.toString("utf8")).error.code).toBe("bad_request");
      const long = await sendRaw(
        server.url,
        `GET /v1/jobs?x=${"y".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      expect(long.status).toBe(431);
      expect(JSON.parse(long.body.toString("utf8")).error.code).toBe(
        "request_header_fields_too_large",
      );
    } finally {
      await server.close();
    }
  });

  it("POST /v1/keys with a field holding an object whose toString is not a function (String() throws) is 400 naming the field, not a 500", async () => {
    // JSON can carry {"toString": null}: an error message that quoted the value with String() threw.
    const odd = JSON.parse('[{"toString":null,"valueOf":-1.5e-323}]') as unknown;
    const fields = ["name", "scopes", "project", "budget", "limits", "expires_at", "user_limits"];
    for (const field of fields) {
      for (const value of [odd, (odd as unknown[])[0]]) {
        const { status, body } = await answer(
          await h.app.request("/v1/keys", {
            method: "POST",
            headers: json,
            body: JSON.stringify({ name: "ci", [field]: value }),
          }),
        );
        expect(status, `${field}: ${JSON.stringify(body)}`).toBe(400);
        expect(body.error.path ?? body.error.errors?.[0]?.path, field).toMatch(
          new RegExp(`^${field}`),
        );
      }
    }
  });

  it("images/edits with a bad image followed by a text `image` field is 400, with no unhandled rejection left behind", async () => {
    const rejections: unknown[] = [];
    const listen = (reason: unknown) => rejections.push(reason);
    process.on("unhandledRejection", listen);
    try {
      const form = new FormData();
      form.append("image", new Blob([new Uint8Array([1, 2, 3])], { type: "image/png" }), "a.png");
      form.append("image", "not a file");
      form.append("prompt", "x");
      const { status } = await answer(
        await h.app.request("/v1/images/edits", { method: "POST", headers: auth, body: form }),
      );
      expect(status).toBe(400);
      // Unhandled rejections are reported after the microtask queue drains.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(rejections).toEqual([]);
    } finally {
      process.off("unhandledRejection", listen);
    }
  });
});
