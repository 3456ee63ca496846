import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClientStack, type ClientStack } from "./support/client-stack.ts";
import { closedPort, runInProcess } from "./support/run.ts";

const run = promisify(execFile);

interface JobView {
  id: string;
  status: string;
  outputs: { sha256: string; bytes: number }[];
}

describe("reelay generate against the local stack", () => {
  let t: ClientStack;
  beforeAll(async () => {
    t = await startClientStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("saves <taskId>.mp4 whose sha256 and size are the job's, that ffprobe reads, with one Generation Succeeded event", async () => {
    const out = await mkdtemp(join(tmpdir(), "reelay-generate-"));
    const result = await t.cli([
      "generate",
      "a paper boat in the rain",
      "--model",
      "gamma-3.1",
      "--duration",
      "4",
      "--out",
      out,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const saved = /saved\s+(\S+)\n\s+(\d+) bytes, sha256 ([0-9a-f]{64})/.exec(result.stdout);
    expect(saved, result.stdout).not.toBeNull();
    const [, file, bytes, sha256] = saved!;
    const id = /created\s+(vidtsk_\w+)/.exec(result.stdout)?.[1];
    expect(file).toBe(join(out, `${id}.mp4`));
    expect(result.stdout).toMatch(/succeeded\s+[\d.]+ s\s+\d+ polls?/);

    const video = await readFile(file!);
    expect(video.subarray(4, 8).toString("latin1")).toBe("ftyp");
    expect(createHash("sha256").update(video).digest("hex")).toBe(sha256);
    const { body: job } = await t.api<JobView>("GET", `/v1/jobs/${id}`);
    expect(job.status).toBe("succeeded");
    expect(job.outputs[0]).toMatchObject({ sha256, bytes: Number(bytes) });
    expect(video.length).toBe(Number(bytes));

    // ffprobe reads the MP4 (CI installs Debian's ffmpeg for this), and the
    // event log holds exactly one Generation Succeeded for the job.
    const probe = await run("ffprobe", [
      "-v",
      "error",
      "-show_entries",
      "format=format_name,duration",
      "-of",
      "json",
      file!,
    ]);
    const format = (
      JSON.parse(probe.stdout) as { format: { format_name: string; duration: string } }
    ).format;
    expect(format.format_name).toContain("mp4");
    expect(Number(format.duration)).toBeGreaterThan(0);
    const events = (await readFile(join(t.stack.dataDir, "events.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as {
            "detail-type": string;
            detail: { jobId: string; output: { bytes: number; sha256: string } };
          },
      );
    const mine = events.filter((event) => event.detail.jobId === id);
    expect(mine.map((event) => event["detail-type"])).toEqual(["Generation Succeeded"]);
    expect(mine[0]!.detail.output).toMatchObject({ bytes: Number(bytes), sha256 });
  }, 60_000);

  it("--json prints exactly one JSON object naming the saved file, and nothing else on stdout", async () => {
    const out = await mkdtemp(join(tmpdir(), "reelay-generate-"));
    const result = await t.cli([
      "generate",
      "a kite over a beach",
      "--model",
      "gamma-3.1",
      "--duration",
      "4",
      "--out",
      out,
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const summary = JSON.parse(lines[0]!) as {
      task_id: string;
      status: string;
      file: string;
      sha256: string;
    };
    expect(summary.status).toBe("succeeded");
    expect(await readdir(out)).toEqual([`${summary.task_id}.mp4`]);
    expect(
      createHash("sha256")
        .update(await readFile(summary.file))
        .digest("hex"),
    ).toBe(summary.sha256);
  }, 60_000);

  it("an invalid request exits 1 with each error's path, and creates no job", async () => {
    const before = await t.api<{ data: unknown[] }>("GET", "/v1/jobs?limit=100");
    const result = await t.cli([
      "generate",
      "a boat",
      "--model",
      "gamma-3.1",
      "--duration",
      "5",
      "--aspect",
      "1:1",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/duration_sec: .*\[\w+\]/);
    expect(result.stderr).toMatch(/aspect_ratio: .*\[\w+\]/);
    expect(result.stdout).toBe("");
    const after = await t.api<{ data: unknown[] }>("GET", "/v1/jobs?limit=100");
    expect(after.body.data).toHaveLength(before.body.data.length);
  });

  it("--json on an invalid request prints {error: {code: invalid_request, errors}} on stdout", async () => {
    const result = await t.cli([
      "generate",
      "a boat",
      "--model",
      "gamma-3.1",
      "--duration",
      "5",
      "--json",
    ]);
    expect(result.code).toBe(1);
    const body = JSON.parse(result.stdout) as {
      error: { code: string; errors: { path: string }[] };
    };
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.errors.map((issue) => issue.path)).toContain("duration_sec");
  });

  it("--no-wait --json prints the created task id and a non-terminal status, and the job exists, made for --user's end user", async () => {
    const result = await t.cli([
      "generate",
      "a lighthouse at dusk",
      "--model",
      "gamma-3.1",
      "--duration",
      "4",
      "--user",
      "u-7",
      "--no-wait",
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const created = JSON.parse(result.stdout) as { task_id: string; status: string };
    expect(created.task_id).toMatch(/^vidtsk_/);
    expect(["queued", "running"]).toContain(created.status);
    const { status, body } = await t.api("GET", `/v1/jobs/${created.task_id}`);
    expect(status).toBe(200);
    expect((body as { user?: string }).user).toBe("u-7");
  });

  // The real binary in the folder that holds the file, as a user runs it; its exit code goes
  // through process.exitCode.
  it("a wrong API key exits 2 with the API's unauthorized code", async () => {
    const result = await t.cli(["generate", "a boat", "--model", "gamma-3.1", "--duration", "4"], {
      env: { REELAY_API_KEY: "wrong" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("[unauthorized]");
  });
});

describe("reelay generate leaves the model's name to the server, and fits with --fit", () => {
  let t: ClientStack;
  beforeAll(async () => {
    t = await startClientStack(undefined, {
      REELAY_MODEL_ALIASES: JSON.stringify({ "house-video": "os-2" }),
    });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("an operator's alias the built-in catalog does not know is sent, and the server runs its model", async () => {
    const result = await t.cli([
      "generate",
      "a lighthouse at dusk",
      "--model",
      "house-video",
      "--duration",
      "4",
      "--no-wait",
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const created = JSON.parse(result.stdout) as { task_id: string; model: string };
    expect(created.model).toBe("os-2");
    const { body } = await t.api<{ requested_model: string }>("GET", `/v1/jobs/${created.task_id}`);
    expect(body.requested_model).toBe("house-video");
  });

  it("a name no catalog knows is the server's refusal: exit 1 with [unknown_model]", async () => {
    const result = await t.cli(["generate", "a boat", "--model", "no-such-model", "--no-wait"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("unknown_model");
  });

  it("--fit sends X-Reelay-Fit: nearest and prints the moves; the job carries them", async () => {
    const args = ["generate", "a boat", "--model", "os-2", "--duration", "5", "--no-wait"];
    const text = await t.cli([...args, "--fit"]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain("fitted    duration_sec: 5 -> 4\n");
    const json = await t.cli([...args, "--fit", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    const created = JSON.parse(json.stdout) as { task_id: string; adjustments: unknown };
    const moved = [{ path: "duration_sec", from: 5, to: 4 }];
    expect(created.adjustments).toEqual(moved);
    const { body } = await t.api<{ adjustments: unknown }>("GET", `/v1/jobs/${created.task_id}`);
    expect(body.adjustments).toEqual(moved);
    // Without --fit the same request is refused before anything is sent.
    expect((await t.cli(args)).code).toBe(1);
  });
});

it("generate when reelay is not running exits 2 and says how to start it", async () => {
  const url = `http://127.0.0.1:${await closedPort()}`;
  const result = await runInProcess(
    ["generate", "a boat", "--model", "gamma-3.1", "--duration", "4"],
    {
      REELAY_API_URL: url,
      REELAY_API_KEY: "k",
    },
  );
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`reelay is not running at ${url} — start it with \`npm start\``);
});
