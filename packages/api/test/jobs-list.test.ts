import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { created, fail, harness, VALID } from "./support/harness.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

interface Page {
  data: {
    id: string;
    status: string;
    model: string;
    kind: string;
    source: { type: string };
    history: { status: string; at: string; note?: string }[];
  }[];
  next_cursor: string | null;
}

const KAPPA = { model: "kappa-omni-flash-preview", prompt: "a kite over a beach", duration_sec: 5 };

describe("GET /v1/jobs filters", () => {
  it("status, model, kind and source filter together, and the cursor walks only matching jobs, newest first", async () => {
    // A clock a second apart per job, so "newest first" has one answer even on a fast machine.
    let tick = Date.UTC(2026, 0, 1);
    const now = () => {
      tick += 1000;
      return new Date(tick);
    };
    const h = await harness(aws, { now });
    const gamma: string[] = [];
    for (let i = 0; i < 5; i += 1) gamma.push(await created(h, { ...VALID, prompt: `boat ${i}` }));
    const kappa = await created(h, KAPPA);
    for (const id of [gamma[0], gamma[2], gamma[4], kappa]) await fail(h, id ?? "");
    // A job from a drop: same model and status, other source.
    const dropped = await created(h, { ...VALID, prompt: "from a drop" });
    await fail(h, dropped);
    const asDrop = await h.jobs.require(dropped);
    await h.jobs.update(dropped, { source: { ...asDrop.source, type: "drop" } });

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `status=failed&model=gamma-3.1&kind=video&source=api&limit=1${cursor === null ? "" : `&cursor=${cursor}`}`;
      const page = (await (await h.get(`/v1/jobs?${query}`)).json()) as Page;
      for (const job of page.data)
        expect(job).toMatchObject({
          status: "failed",
          model: "gamma-3.1",
          kind: "video",
          source: { type: "api" },
        });
      seen.push(...page.data.map((job) => job.id));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(seen).toEqual([gamma[4], gamma[2], gamma[0]]);
    expect(pages).toBe(3);

    const drops = (await (await h.get("/v1/jobs?source=drop")).json()) as Page;
    expect(drops.data.map((job) => job.id)).toEqual([dropped]);
    const kappas = (await (await h.get("/v1/jobs?model=kappa-omni-flash-preview")).json()) as Page;
    expect(kappas.data.map((job) => job.id)).toEqual([kappa]);
    const images = (await (await h.get("/v1/jobs?kind=image")).json()) as Page;
    expect(images).toEqual({ data: [], next_cursor: null });
  });

  it("bad filter values are 400 invalid_query with the path of the bad parameter", async () => {
    const h = await harness(aws);
    const cases: [string, string][] = [
      ["status=done", "status"],
      ["kind=audio", "kind"],
      ["source=email", "source"],
      ["model=gamma-3.2", "model"],
      ["limit=0", "limit"],
    ];
    for (const [query, path] of cases) {
      const response = await h.get(`/v1/jobs?${query}`);
      expect(response.status, query).toBe(400);
      const { error } = (await response.json()) as {
        error: { code: string; path: string; message: string };
      };
      expect(error, query).toMatchObject({ code: "invalid_query", path });
    }
    const typo = (await (await h.get("/v1/jobs?model=gamma-3.2")).json()) as {
      error: { message: string };
    };
    expect(typo.error.message).toContain("gamma-3.1");
  });
});

describe("GET /v1/jobs/{id} history", () => {
  it("lists every state the job went through with an ISO timestamp each, in order, ending in its current status", async () => {
    const h = await harness(aws);
    const id = await created(h);
    await h.jobs.transition(id, { from: ["queued"], to: "running", note: "submitted" });
    await h.jobs.transition(id, { from: ["running"], to: "downloading" });
    await fail(h, id);
    const view = (await (await h.get(`/v1/jobs/${id}`)).json()) as Page["data"][number];
    expect(view.history.map((entry) => entry.status)).toEqual([
      "queued",
      "running",
      "downloading",
      "failed",
    ]);
    expect(view.history[1]?.note).toBe("submitted");
    const times = view.history.map((entry) => entry.at);
    for (const at of times) expect(new Date(at).toISOString()).toBe(at);
    expect([...times].sort()).toEqual(times);
    expect(view.status).toBe("failed");
  });
});
