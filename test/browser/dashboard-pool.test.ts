/**
 * The dashboard over a pool, in Debian's chromium driven by playwright-core: the admin key sees one
 * row per upstream account (circuit, in flight/limit, recent 429s and errors) as GET /v1/upstreams
 * reports them (dashboard.test.ts covers the rest of the page, over one account).
 * The page callbacks run in the browser; the project compiles without DOM types, hence the casts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../e2e/support/stack.ts";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
];

let stack: TestStack;
let profile: string;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  stack = await startTestStack(
    {},
    {
      accounts: [
        { name: "alpha", cap: 2 },
        { name: "beta", cap: 3 },
      ],
      setLimits: true,
    },
  );
  profile = await mkdtemp(join(tmpdir(), "reelay-chromium-pool-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  page = context.pages()[0] ?? (await context.newPage());
}, 60_000);

afterAll(async () => {
  await context?.close();
  await stack?.dispose();
  if (profile !== undefined) await rm(profile, { recursive: true, force: true });
});

describe("dashboard over a pool", () => {
  it("shows one row per account with its circuit and in flight/limit, as GET /v1/upstreams has them", async () => {
    await page.goto(`${stack.url}/#key=${stack.apiKey}`);
    await page.waitForSelector("#pool-panel:not([hidden]) #pool tbody tr");
    const rows = await page.$$eval("#pool tbody tr", (trs) =>
      trs.map((tr) =>
        [
          ...(
            tr as unknown as { querySelectorAll(s: string): { textContent: string }[] }
          ).querySelectorAll("td"),
        ].map((td) => td.textContent),
      ),
    );
    expect(rows).toEqual([
      ["alpha", "closed", "0/2", "0", "0", "-"],
      ["beta", "closed", "0/3", "0", "0", "-"],
    ]);
  });
});
