import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, type ErrorCode, ReelayError } from "@reelay/core/domain";
import { handleError } from "../src/errors.ts";
import { OPERATIONS } from "../src/openapi/document.ts";

const statusOf = (code: ErrorCode): number | undefined =>
  (ERROR_CODES[code] as { status?: number }).status;

describe("the API answers the registry's statuses", () => {
  it("a ReelayError thrown with no status of its own is answered with its code's status", async () => {
    const app = new Hono();
    app.get("/:code", (c) => {
      throw new ReelayError(c.req.param("code") as ErrorCode, "refused");
    });
    app.onError(handleError);
    const answered = (Object.keys(ERROR_CODES) as ErrorCode[]).filter(
      (code) => statusOf(code) !== undefined,
    );
    for (const code of answered) {
      const response = await app.request(`/${code}`);
      expect([
        response.status,
        ((await response.json()) as { error: { code: string } }).error.code,
      ]).toEqual([statusOf(code), code]);
    }
  });

  it("a bug is 500 internal_error without its message, and goes whole to the operator's report", async () => {
    const reported: [string, unknown][] = [];
    const bug = new TypeError("cannot read properties of undefined (reading 'id')");
    const app = new Hono();
    app.get("/", () => {
      throw bug;
    });
    app.onError((error, c) => handleError(error, c, (message, e) => reported.push([message, e])));
    const response = await app.request("/");
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text).error.code).toBe("internal_error");
    expect(text).not.toContain("reading 'id'");
    expect(reported).toEqual([["reelay api: unhandled error", bug]]);
  });

  it("every error the OpenAPI document lists has the status the registry gives its code", () => {
    for (const [route, operation] of Object.entries(OPERATIONS)) {
      for (const error of operation.errors) {
        for (const code of error.codes) {
          const status = statusOf(code);
          if (status !== undefined)
            expect(`${route} ${code} ${error.status}`).toBe(`${route} ${code} ${status}`);
        }
      }
    }
  });
});
