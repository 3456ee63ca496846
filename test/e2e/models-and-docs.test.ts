import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./support/stack.ts";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
}, 60_000);
afterAll(() => stack?.dispose());

interface Item {
  id: string;
  source: string;
  durations: number[] | null;
}

describe("local stack: models, OpenAPI and docs over HTTP", () => {
  it("GET /v1/models merges the bundled upstream's listing with the catalog: listed catalog models are both", async () => {
    const response = await fetch(`${stack.url}/v1/models?modality=video`, {
      headers: { Authorization: `Bearer ${stack.apiKey}` },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Item[]; warnings: unknown[] };
    expect(body.warnings).toEqual([]);
    expect(body.data.find((item) => item.id === "gamma-3.1")).toMatchObject({
      source: "both",
      durations: [4, 6, 8],
    });
    // The simulator lists no lambda code, so the family's prefix entry is the catalog's alone.
    expect(body.data.find((item) => item.id === "lambda-")?.source).toBe("catalog");
  });

  it("GET /openapi.json is open and a valid OpenAPI 3.1 document naming the dashboard and event routes this stack serves", async () => {
    const response = await fetch(`${stack.url}/openapi.json`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { paths: Record<string, unknown> };
    expect((await new Validator().validate(doc as never)).valid).toBe(true);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/v1/models", "/v1/events", "/v1/video/generations", "/docs"]),
    );
  });

  it("GET /docs is open HTML naming every path of the document", async () => {
    const [page, doc] = await Promise.all([
      fetch(`${stack.url}/docs`).then((r) => r.text()),
      fetch(`${stack.url}/openapi.json`).then(
        (r) => r.json() as Promise<{ paths: Record<string, unknown> }>,
      ),
    ]);
    for (const path of Object.keys(doc.paths)) expect(page).toContain(path);
  });
});
