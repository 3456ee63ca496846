/**
 * `reelay generate --first-frame ./photo.png` against the local stack: the file is uploaded, the
 * job keeps its upload:// reference, and the upstream (the simulator) fetched it through a
 * presigned link. A file that is not what its name says is refused before any job is made.
 */
import { createHash } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solidPng } from "../../simulator/src/png.ts";
import { startClientStack, type ClientStack } from "./support/client-stack.ts";

interface JobView {
  id: string;
  status: string;
  request: { frame_images?: { image_url: { url: string } }[] };
}

/** Waits for `find` to answer, looking every 50 ms; the bound only ends a test that would hang. */
async function eventually<T>(find: () => T | undefined, limitMs = 20_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error("not seen in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("reelay generate with local files", () => {
  let t: ClientStack;
  let dir: string;
  beforeAll(async () => {
    t = await startClientStack();
    dir = await mkdtemp(join(tmpdir(), "reelay-upload-"));
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** `reelay generate --first-frame <photo> --json` on gamma: the job it made, as the API shows it. */
  async function generateWithFirstFrame(photo: string): Promise<JobView> {
    const result = await t.cli(
      ["generate", "the boat sails off", "--model", "gamma-3.1", "--duration", "4"].concat([
        "--first-frame",
        photo,
        "--out",
        dir,
        "--json",
      ]),
    );
    expect(result.code, result.stderr).toBe(0);
    const id = (JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as { task_id: string })
      .task_id;
    return (await t.api<JobView>("GET", `/v1/jobs/${id}`)).body;
  }

  it("--first-frame ./photo.png on a first-frame model succeeds, the job keeps upload://, and the upstream fetched the upload through a presigned link", async () => {
    const photo = join(dir, "photo.png");
    await writeFile(photo, solidPng("first-frame"));
    const job = await generateWithFirstFrame(photo);
    expect(job.status).toBe("succeeded");
    const ref = job.request.frame_images?.[0]?.image_url.url ?? "";
    expect(ref).toMatch(/^upload:\/\/upl_[0-9A-Z]{26}$/);
    const uploadId = ref.slice("upload://".length);
    const fetched = await eventually(() =>
      t.stack
        .simulator!.counters()
        .materialFetches.find((f) => f.url.endsWith(`/uploads/${uploadId}`)),
    );
    expect(fetched).toMatchObject({ signed: true, status: 200 });
  });

  it("--first-frame with a PNG over 8 MiB (the client sends it by presigned PUT) succeeds, and the upload is the file's bytes", async () => {
    const png = solidPng("big-first-frame");
    const big = new Uint8Array(9 * 1024 * 1024);
    big.set(png);
    const photo = join(dir, "big.png");
    await writeFile(photo, big);
    const job = await generateWithFirstFrame(photo);
    expect(job.status).toBe("succeeded");
    const uploadId = (job.request.frame_images?.[0]?.image_url.url ?? "").slice("upload://".length);
    const { body: upload } = await t.api<{ status: string; size: number; sha256: string }>(
      "GET",
      `/v1/uploads/${uploadId}`,
    );
    expect(upload).toMatchObject({
      status: "ready",
      size: big.length,
      sha256: createHash("sha256").update(big).digest("hex"),
    });
  });

  it("a text file named .png is refused with invalid_upload at `file`, and no job is made", async () => {
    const fake = join(dir, "fake.png");
    await writeFile(fake, "this is text, not a picture\n");
    const before = (await t.api<{ data: unknown[] }>("GET", "/v1/jobs?limit=100")).body.data;
    const result = await t.cli(["generate", "p", "--model", "gamma-3.1", "--first-frame", fake]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("invalid_upload");
    const after = (await t.api<{ data: unknown[] }>("GET", "/v1/jobs?limit=100")).body.data;
    expect(after).toHaveLength(before.length);
  });
});
