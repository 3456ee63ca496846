import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import type { OpenApiDocument } from "../src/openapi/document.ts";
import { escapeHtml } from "../src/openapi/html.ts";
import { harness } from "./support/harness.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

describe("GET /docs", () => {
  it("is served without a key as text/html that names every documented method and path, with examples and error codes", async () => {
    const h = await harness(aws, { eventStream: { subscribe: () => () => undefined } });
    const response = await h.app.request("/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const page = await response.text();
    const doc = (await (await h.app.request("/openapi.json")).json()) as OpenApiDocument;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods))
        expect(page, `${method} ${path}`).toContain(
          `${method.toUpperCase()}</span> ${escapeHtml(path)}</h3>`,
        );
    }
    expect(page).toContain(escapeHtml('"model": "gamma-3.1"'));
    expect(page).toContain("<code>invalid_query</code>");
    expect(page).toContain("<code>modality</code>");
  });

  it("loads nothing from another origin (the machine may be offline)", async () => {
    const page = await (await (await harness(aws)).app.request("/docs")).text();
    expect(page).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(page).not.toMatch(/@import|<script[^>]+src/i);
  });

  it("escapes text from the document, so an example cannot inject markup", () => {
    expect(escapeHtml(`<script>"&'`)).toBe("&lt;script&gt;&quot;&amp;&#39;");
  });
});
