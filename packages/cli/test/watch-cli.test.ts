import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BIN,
  closedPort,
  runCli,
  startClientStack,
  type ClientStack,
} from "./support/client-stack.ts";

/** Starts `reelay watch`, resolving once it says it is subscribed; `done` resolves at its exit. */
function startWatch(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, "watch", ...args], { env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes("watching ")) resolve();
    });
    child.on("exit", () => reject(new Error(`watch exited before subscribing: ${stderr}`)));
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, stdout, stderr })),
  );
  return { child, ready, done };
}

describe("reelay watch against the local stack", () => {
  let t: ClientStack;
  beforeAll(async () => {
    t = await startClientStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("prints one line for a job that finishes while it watches: status, id, model, bytes, S3 location", async () => {
    const watch = startWatch(["--count", "1"], t.env);
    try {
      await watch.ready;
      const created = await t.api<{ task_id: string }>("POST", "/v1/video/generations", {
        model: "gamma-3.1",
        prompt: "a swan",
        duration_sec: 4,
      });
      const { code, stdout } = await watch.done;
      expect(code).toBe(0);
      const id = created.body.task_id;
      expect(stdout).toMatch(
        new RegExp(
          `^succeeded ${id} gamma-3\\.1 \\d+ bytes s3://${t.stack.bucket}/outputs/${id}/\\S+\\n$`,
        ),
      );
    } finally {
      watch.child.kill();
    }
  }, 60_000);

  it("--json prints the event itself, one object per line", async () => {
    const watch = startWatch(["--count", "1", "--json"], t.env);
    try {
      await watch.ready;
      const created = await t.api<{ task_id: string }>("POST", "/v1/video/generations", {
        model: "gamma-3.1",
        prompt: "a heron",
        duration_sec: 4,
      });
      const { stdout } = await watch.done;
      const event = JSON.parse(stdout) as {
        "detail-type": string;
        source: string;
        detail: { jobId: string; status: string };
      };
      expect(event).toMatchObject({
        "detail-type": "Generation Succeeded",
        source: "reelay",
        detail: { jobId: created.body.task_id, status: "succeeded" },
      });
    } finally {
      watch.child.kill();
    }
  }, 60_000);

  it("rides out a restart of the stack: reconnects and prints the event of a job made afterwards", async () => {
    const watch = startWatch(["--count", "1"], t.env);
    try {
      await watch.ready;
      const port = Number(new URL(t.stack.url).port);
      await t.stop();
      t = await startClientStack({ dataDir: t.env.REELAY_DATA_DIR!, port });
      const created = await t.api<{ task_id: string }>("POST", "/v1/video/generations", {
        model: "gamma-3.1",
        prompt: "a crane",
        duration_sec: 4,
      });
      const { code, stdout, stderr } = await watch.done;
      expect(code).toBe(0);
      expect(stderr).toContain("reconnecting");
      expect(stdout).toMatch(new RegExp(`^succeeded ${created.body.task_id} `));
    } finally {
      watch.child.kill();
    }
  }, 60_000);
});

it("watch when reelay is not running exits 2 at once and says how to start it", async () => {
  const url = `http://127.0.0.1:${await closedPort()}`;
  const result = await runCli(["watch"], { REELAY_API_URL: url, REELAY_API_KEY: "k" });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`reelay is not running at ${url} — start it with \`npm start\``);
});
