import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClientStack, type ClientStack } from "./support/client-stack.ts";
import { closedPort, runInProcess } from "./support/run.ts";

/**
 * Starts `reelay watch`: `ready` resolves once it says it is subscribed, `reconnected()` once it
 * says it is subscribed again after a drop (asked for only by a test that waits for it, so a watch
 * that ends without a drop leaves no promise rejected), `done` at its end.
 */
function startWatch(args: string[], env: Record<string, string>) {
  let stderr = "";
  let subscribed: () => void = () => undefined;
  let resubscribed: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (subscribed = resolve));
  const again = new Promise<void>((resolve) => (resubscribed = resolve));
  const done = runInProcess(["watch", ...args], env, {
    onStderr: (text) => {
      stderr += text;
      if (stderr.includes("watching ")) subscribed();
      if (stderr.includes("reconnected\n")) resubscribed();
    },
  });
  const early = done.then((result) => {
    throw new Error(`watch ended before subscribing: ${result.stderr}`);
  });
  return {
    ready: Promise.race([ready, early]),
    reconnected: () => Promise.race([again, early]),
    done,
  };
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
  }, 60_000);

  it("--json prints the event itself, one object per line", async () => {
    const watch = startWatch(["--count", "1", "--json"], t.env);
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
  }, 60_000);

  it("rides out a restart of the stack: reconnects and prints the event of a job made afterwards", async () => {
    const watch = startWatch(["--count", "1"], t.env);
    await watch.ready;
    const port = Number(new URL(t.stack.url).port);
    await t.stop();
    t = await startClientStack({ dataDir: t.env.REELAY_DATA_DIR!, port });
    // The local stream sends what happens while a client is connected: the job is made once the
    // watch is back (its backoff may outlast a quick job on a loaded machine).
    await watch.reconnected();
    const created = await t.api<{ task_id: string }>("POST", "/v1/video/generations", {
      model: "gamma-3.1",
      prompt: "a crane",
      duration_sec: 4,
    });
    const { code, stdout, stderr } = await watch.done;
    expect(code).toBe(0);
    expect(stderr).toContain("reconnecting");
    expect(stdout).toMatch(new RegExp(`^succeeded ${created.body.task_id} `));
  }, 60_000);
});

it("watch when reelay is not running exits 2 at once and says how to start it", async () => {
  const url = `http://127.0.0.1:${await closedPort()}`;
  const result = await runInProcess(["watch"], { REELAY_API_URL: url, REELAY_API_KEY: "k" });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`reelay is not running at ${url} — start it with \`npm start\``);
});
