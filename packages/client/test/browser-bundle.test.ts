import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { BROWSER_BUNDLE, renderBrowserBundle } from "../scripts/browser.ts";

describe("the dashboard's client.js", () => {
  it("is what esbuild makes of src/index.ts today (else: npm run browser -w @reelay/client)", async () => {
    const committed = await readFile(BROWSER_BUNDLE, "utf8");
    expect(committed === (await renderBrowserBundle())).toBe(true);
  });
});
