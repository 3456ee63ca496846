/**
 * The dashboard in a real browser: Debian's chromium driven by playwright-core against the local
 * stack. A job submitted through the form reaches succeeded in the gallery, its tile shows its loaded
 * thumbnail and scrubs its spritesheet on hover, its video plays far enough
 * to show a frame, a duration the model refuses is shown next to its field, and a batch shows
 * its progress and hands over its results, the month's spend shows against the budget, and a
 * finished job shows its webhook deliveries.
 * The page callbacks run in the browser; the project compiles without DOM types, hence the casts.
 */
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startReceiver,
  type Receiver,
} from "../../packages/core/test/usecases/webhooks/receiver.ts";
import { startTestStack, type TestStack, waitForTerminalJob } from "../e2e/support/stack.ts";

const CHROMIUM = "/usr/bin/chromium";
// headless: true adds --headless; the rest keep a CI browser quiet, offline and sandbox-free (root).
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const ARTIFACTS = join(process.cwd(), "test-artifacts");
const JOB_TIMEOUT_MS = 60_000;

let stack: TestStack;
let receiver: Receiver;
let profile: string;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  receiver = await startReceiver(() => 200);
  // Priced, with a deployment budget: the spend panel shows cost against it. One webhook subscriber.
  stack = await startTestStack(
    {
      REELAY_WEBHOOKS: JSON.stringify([
        { url: receiver.url, secret: "whsec_ZGFzaGJvYXJkLXRlc3Qtc2VjcmV0" },
      ]),
      REELAY_WEBHOOK_SCHEDULE: "0,1",
      REELAY_PRICES: '{"currency":"USD","models":{"os-2":{"per_second":{"default":0.025}}}}',
      REELAY_BUDGET: '{"amount":100,"period":"month"}',
    },
    {},
    { previews: true },
  );
  profile = await mkdtemp(join(tmpdir(), "reelay-chromium-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1200, height: 1000 },
  });
  page = context.pages()[0] ?? (await context.newPage());
}, 60_000);

afterAll(async () => {
  await context?.close();
  await stack?.dispose();
  await receiver?.close();
  if (profile !== undefined) await rm(profile, { recursive: true, force: true });
});

async function chooseModel(code: string): Promise<void> {
  await page.selectOption("#f-model", code);
}

describe("dashboard in chromium", () => {
  it("asks for the API key once, then shows the form with the chosen model's durations, resolutions and ratios from /v1/models", async () => {
    await page.goto(`${stack.url}/`);
    await page.fill("#key-input", stack.apiKey);
    await page.click("#key-form button[type=submit]");
    await page.waitForSelector("#main:not([hidden])");
    await chooseModel("gamma-3.1");
    expect(await page.textContent("#f-duration-hint")).toBe("allowed: 4, 6, 8");
    expect(await page.getAttribute("#f-duration", "placeholder")).toBe("model default");
    await chooseModel("kappa-omni-flash-preview");
    expect(await page.textContent("#f-duration-hint")).toBe("3 to 10");
    expect(
      await page.$$eval("#f-resolution option", (options) =>
        options.map((o) => (o as unknown as { value: string }).value),
      ),
    ).toEqual(["", "720p"]);
    await chooseModel("gamma-3.1");
    expect(
      await page.$$eval("#f-ratio option", (options) =>
        options.map((o) => (o as unknown as { value: string }).value),
      ),
    ).toEqual(["", "16:9", "9:16"]);
    expect(
      await page.evaluate(() => (globalThis as any).localStorage.getItem("reelay.apiKey")),
    ).toBe(stack.apiKey);
    await page.waitForSelector('#live[data-state="on"]');
  });

  it(
    "submits a video job that reaches succeeded in the list, with a timeline and a video showing a frame",
    async () => {
      expect(
        await page.evaluate(() =>
          (globalThis as any).document
            .createElement("video")
            .canPlayType('video/mp4; codecs="avc1.42E01E"'),
        ),
      ).toBe("probably");
      await chooseModel("gamma-3.1");
      await page.fill("#f-prompt", "a lighthouse at dusk, waves below");
      await page.fill("#f-duration", "4");
      await page.selectOption("#f-resolution", "720p");
      await page.click("#submit-button");
      await page.waitForFunction(() =>
        (globalThis as any).document
          .querySelector("#detail-id")
          ?.textContent?.startsWith("vidtsk_"),
      );
      const jobId = (await page.textContent("#detail-id")) ?? "";

      await page.waitForSelector(`#jobs li[data-id="${jobId}"][data-status="succeeded"]`, {
        timeout: JOB_TIMEOUT_MS,
      });
      // The gallery tile shows its poster frame, loaded, and hovering it scrubs the spritesheet.
      const tile = `#jobs li[data-id="${jobId}"]`;
      await page.waitForFunction(
        (selector) => {
          const img = (globalThis as any).document.querySelector(`${selector} img.thumb`);
          return img?.complete === true && img.naturalWidth > 0;
        },
        tile,
        { timeout: 20_000 },
      );
      expect(
        await page.$eval(`${tile} img.thumb`, (node) => {
          const img = node as unknown as { naturalWidth: number; naturalHeight: number };
          return { width: img.naturalWidth, height: img.naturalHeight };
        }),
      ).toEqual({ width: 640, height: 360 });
      const frame = await page.$(`${tile} .frame`);
      const box = (await frame?.boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 };
      const scrubAt = async (fraction: number) => {
        await page.mouse.move(box.x + box.width * fraction, box.y + box.height / 2);
        return page.$eval(`${tile} .scrub`, (node) => {
          const scrub = node as unknown as {
            dataset: Record<string, string>;
            style: { backgroundPosition: string };
          };
          return { frame: scrub.dataset.frame, position: scrub.style.backgroundPosition };
        });
      };
      expect(await scrubAt(0.05)).toEqual({ frame: "0", position: "0% 0%" });
      expect(await scrubAt(0.95)).toEqual({ frame: "9", position: "100% 100%" });
      // The spritesheet itself loads in the page: its URL is the job's own.
      expect(
        await page.evaluate(async (selector) => {
          const scrub = (globalThis as any).document.querySelector(`${selector} .scrub`);
          const url = /url\("(.*)"\)/.exec(scrub.style.backgroundImage)?.[1] ?? "";
          const image = new (globalThis as any).Image();
          image.src = url;
          await image.decode();
          return { width: image.naturalWidth, height: image.naturalHeight };
        }, tile),
      ).toEqual({ width: 800, height: 180 });
      await page.click(tile);
      await page.waitForSelector('#detail-status[data-status="succeeded"]');
      const timeline = await page.$$eval("#timeline li", (items) =>
        items.map(
          (item) => (item as unknown as { dataset: Record<string, string> }).dataset.status,
        ),
      );
      expect(timeline[0]).toBe("queued");
      expect(timeline.at(-1)).toBe("succeeded");
      expect(timeline).toContain("running");

      await page.waitForFunction(
        () => ((globalThis as any).document.querySelector("#previews video")?.readyState ?? 0) >= 2,
        undefined,
        { timeout: 20_000 },
      );
      const video = await page.$eval("#previews video", (node) => {
        const v = node as unknown as { readyState: number; videoWidth: number; currentSrc: string };
        return { readyState: v.readyState, width: v.videoWidth, src: v.currentSrc };
      });
      expect(video.readyState).toBeGreaterThanOrEqual(2);
      expect(video.width).toBeGreaterThan(0);
      expect(video.src).toContain(`outputs/${jobId}/`);

      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, "dashboard.png"), fullPage: true });
    },
    JOB_TIMEOUT_MS + 30_000,
  );

  it("shows the API's refusal of a duration the model does not take next to the duration field, and makes no job", async () => {
    const rowsBefore = await page.$$eval("#jobs li", (tiles) => tiles.length);
    await chooseModel("gamma-3.1");
    await page.fill("#f-prompt", "a duration gamma refuses");
    await page.fill("#f-duration", "5");
    await page.click("#submit-button");
    const error = await page.waitForSelector('.field-error[data-for="duration_sec"]:not(:empty)');
    expect(await error.textContent()).toMatch(/4, 6 or 8/);
    expect(
      await page.$eval('.field[data-field="duration_sec"]', (node) =>
        node.classList.contains("invalid"),
      ),
    ).toBe(true);
    expect(await page.textContent("#form-error")).toBe("");
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-invalid.png"), fullPage: true });

    const { body } = await (
      await fetch(`${stack.url}/v1/jobs`, { headers: { authorization: `Bearer ${stack.apiKey}` } })
    )
      .json()
      .then((b) => ({ body: b as { data: unknown[] } }));
    expect(body.data.length).toBe(rowsBefore);
  });

  it(
    "lists a batch with its exact progress as it runs, then done, and hands over its results.jsonl",
    async () => {
      const requests = [1, 2, 3].map((i) => ({
        model: "os-2",
        prompt: `a kite, take ${i}`,
        duration_sec: 4,
      }));
      requests.push({
        model: "os-2",
        prompt: "a kite",
        duration_sec: 99,
      } as (typeof requests)[number]);
      const created = await fetch(`${stack.url}/v1/batches`, {
        method: "POST",
        headers: { authorization: `Bearer ${stack.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ requests }),
      });
      const { id } = (await created.json()) as { id: string };
      const row = `#batches tbody tr[data-id="${id}"]`;
      await page.waitForSelector(`#batches-panel:not([hidden]) ${row}`, { timeout: 15_000 });
      await page.waitForSelector(`${row}[data-status="completed"]`, { timeout: JOB_TIMEOUT_MS });
      expect(await page.textContent(`${row} .batch-progress`)).toBe(
        "4/4 ended: 3 succeeded, 1 rejected",
      );
      expect(await page.textContent(`${row} .batch-eta`)).toBe("done");
      expect(await page.getAttribute(`${row} progress`, "value")).toBe("4");
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.click(`${row} button.batch-results`),
      ]);
      expect(download.suggestedFilename()).toBe(`${id}-results.jsonl`);
      const saved = join(await mkdtemp(join(tmpdir(), "reelay-results-")), "results.jsonl");
      await download.saveAs(saved);
      const lines = (await readFile(saved, "utf8"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(lines.map((line) => [line.line, line.status])).toEqual([
        [1, "succeeded"],
        [2, "succeeded"],
        [3, "succeeded"],
        [4, "rejected"],
      ]);
      await page.screenshot({ path: join(ARTIFACTS, "dashboard-batches.png"), fullPage: true });
    },
    JOB_TIMEOUT_MS + 30_000,
  );

  it("shows the month's spend and the deployment's budget with what it has used, as GET /v1/usage reports them", async () => {
    const usage = await fetch(`${stack.url}/v1/usage`, {
      headers: { authorization: `Bearer ${stack.apiKey}` },
    });
    const report = (await usage.json()) as {
      totals: { jobs: number; cost: number };
      budgets: { used: number; remaining: number }[];
    };
    expect(report.totals.jobs).toBeGreaterThan(0);
    await page.reload();
    await page.waitForSelector("#spend-panel:not([hidden]) li.budget");
    const summary = await page.textContent("#spend-summary");
    expect(summary).toContain(`${report.totals.jobs} jobs, ${report.totals.cost} USD`);
    const [budget] = report.budgets;
    expect(await page.textContent("li.budget .budget-text")).toBe(
      `deployment: ${budget!.used} USD of 100 USD per month, ${budget!.remaining} USD left`,
    );
    expect(await page.getAttribute("li.budget progress", "value")).toBe(String(budget!.used));
  });

  it("a finished job's detail lists its webhook deliveries from the log: subscriber, URL, attempts and the last answer", async () => {
    const created = await fetch(`${stack.url}/v1/video/generations`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "os-2", prompt: "a kite for the log", duration_sec: 4 }),
    });
    const { task_id: id } = (await created.json()) as { task_id: string };
    await waitForTerminalJob(stack.url, stack.apiKey, id);
    await page.reload();
    await page.click(`#jobs li[data-id="${id}"]`);
    const item = `#deliveries-panel:not([hidden]) li.delivery[data-status="delivered"]`;
    await page.waitForSelector(item, { timeout: 15_000 });
    const text = (await page.textContent(item)) ?? "";
    expect(text).toContain(receiver.url);
    expect(text).toMatch(/1 attempt, last HTTP 200$/);
  });
});
