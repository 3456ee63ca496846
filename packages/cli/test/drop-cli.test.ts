import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClientStack, type ClientStack } from "./support/client-stack.ts";

interface JobView {
  id: string;
  source: { type: string; key?: string };
  request: { prompt?: string; frame_images?: { image_url: { url: string } }[] };
}

describe("reelay drop against the local stack", () => {
  let t: ClientStack;
  let dir: string;
  beforeAll(async () => {
    t = await startClientStack();
    dir = await mkdtemp(join(tmpdir(), "reelay-drop-"));
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("a dropped .txt becomes a job whose source is inbox/<name>, and the report names it", async () => {
    const file = join(dir, "boat.txt");
    await writeFile(file, "a paper boat in the rain\n");
    const result = await t.cli(["drop", file]);
    expect(result.code, result.stderr).toBe(0);
    const id = /accepted\s+inbox\/boat\.txt -> (vidtsk_\w+)/.exec(result.stdout)?.[1];
    expect(id, result.stdout).toBeDefined();
    const { status, body } = await t.api<JobView>("GET", `/v1/jobs/${id}`);
    expect(status).toBe(200);
    expect(body.source).toMatchObject({ type: "drop", key: "inbox/boat.txt" });
    expect(body.request.prompt).toBe("a paper boat in the rain");
  });

  it("dropping the same file again reports the same job, and no second one is made", async () => {
    const file = join(dir, "again.txt");
    await writeFile(file, "a lantern on a pier\n");
    const first = JSON.parse((await t.cli(["drop", file, "--json"])).stdout) as {
      status: string;
      jobs: { id: string }[];
    };
    const second = JSON.parse((await t.cli(["drop", file, "--json"])).stdout) as {
      status: string;
      jobs: { id: string }[];
    };
    expect(first.status).toBe("accepted");
    expect(second.status).toBe("accepted");
    expect(second.jobs.map((job) => job.id)).toEqual(first.jobs.map((job) => job.id));
    const page = await t.api<{ data: JobView[] }>("GET", "/v1/jobs?limit=100");
    expect(page.body.data.filter((job) => job.source.key === "inbox/again.txt")).toHaveLength(1);
  });

  it("a bad prompt file is reported rejected with each bad line and field, exit 1", async () => {
    const file = join(dir, "bad.jsonl");
    await writeFile(
      file,
      `${JSON.stringify({ model: "gamma-3.1", prompt: "ok", duration_sec: 4 })}\n${JSON.stringify({ model: "gamma-3.1", prompt: "x", duration_sec: 5 })}\n`,
    );
    const result = await t.cli(["drop", file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/partly rejected\s+inbox\/bad\.jsonl -> rejected\/bad\.jsonl/);
    expect(result.stdout).toMatch(/line 2: duration_sec: .*\[\w+\]/);
    expect(result.stdout).toMatch(/accepted: vidtsk_\w+/);
  });

  it("a file that is wholly bad is reported rejected with the content of its error file", async () => {
    const file = join(dir, "broken.json");
    await writeFile(file, "{ not json");
    const result = await t.cli(["drop", file, "--json"]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      status: string;
      rejectedKey: string;
      errors: { code: string }[];
    };
    expect(report.status).toBe("rejected");
    expect(report.rejectedKey).toBe("rejected/broken.json");
    expect(report.errors.length).toBeGreaterThan(0);
  });

  it("material is uploaded before the prompt that names it by bare file name, whatever the order given", async () => {
    const prompt = join(dir, "framed.json");
    const image = join(dir, "first.png");
    await writeFile(
      prompt,
      JSON.stringify({
        model: "gamma-3.1",
        prompt: "the boat sets sail",
        duration_sec: 4,
        frame_images: [
          { type: "image_url", frame_type: "first_frame", image_url: { url: "first.png" } },
        ],
      }),
    );
    await writeFile(image, Buffer.from("89504e470d0a1a0a", "hex"));
    const result = await t.cli(["drop", prompt, image]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout.indexOf("uploaded  inbox/first.png")).toBeLessThan(
      result.stdout.indexOf("uploaded  inbox/framed.json"),
    );
    const id = /accepted\s+inbox\/framed\.json -> (vidtsk_\w+)/.exec(result.stdout)?.[1];
    const { body } = await t.api<JobView>("GET", `/v1/jobs/${id}`);
    expect(body.request.frame_images?.[0]?.image_url.url).toContain("inbox/first.png");
  });

  it("a missing file is a usage error (exit 2) and nothing is uploaded", async () => {
    const present = join(dir, "present.txt");
    await writeFile(present, "a prompt");
    const result = await t.cli(["drop", present, join(dir, "absent.txt")]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("absent.txt");
  });
});
