import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { renderSchema, SCHEMA_FILE } from "../scripts/schema.ts";

describe("src/schema.ts", () => {
  it("is what openapi-typescript makes of reelay's OpenAPI document today (else: npm run schema -w @reelay/client)", async () => {
    const committed = await readFile(SCHEMA_FILE, "utf8");
    expect(committed === (await renderSchema())).toBe(true);
  });
});
