/**
 * `reelay up` with REELAY_LOG_FORMAT=json, as a user runs it (a child process, its own simulator):
 * jobs that succeed, fail upstream and are cancelled, then a SIGTERM; every line the stack wrote to
 * stderr parses as one JSON object in Powertools Logger's shape, and every line about a job names
 * it as jobId, with its model and the API key's id (never the key), and, once Submit has made it,
 * the upstream task.
 */
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { killChildren, startReady } from "./support/child-stack.ts";
import { freePort, tempDir, waitFor } from "./support/stack.ts";

const apiKey = `e2e_${randomBytes(12).toString("hex")}`;
const JOB_ID = /\b((?:vid|img)tsk_[0-9A-Z]{26})\b/;
let dataDir: string | undefined;

afterAll(async () => {
  killChildren();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("the local stack's JSON log", () => {
  it("every stderr line of a run with a success, an upstream failure and a cancel parses as JSON and names the job it is about, its model and key id, and its upstream task from Submit's end on", async () => {
    dataDir = await tempDir("json-logs");
    const { child, url } = await startReady(
      {
        dataDir,
        args: ["--sim-time-scale", "0.05"],
        env: { REELAY_API_KEY: apiKey, REELAY_LOG_FORMAT: "json", REELAY_LOG_LEVEL: "debug" },
      },
      await freePort(),
    );
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as Record<string, any>;
    };
    const create = async (prompt: string) =>
      (await call("POST", "/v1/video/generations", { model: "gamma-3.1", prompt, duration_sec: 4 }))
        .task_id as string;
    const jobs = {
      succeeded: await create("a paper boat"),
      failed: await create('a storm [[sim:task_fail reason="blocked by the content policy"]]'),
      cancelled: await create("a clock with no hands [[sim:never_finish]]"),
    };
    await call("POST", "/v1/video/generations", { model: "no-such-model", prompt: "x" });
    await waitFor(
      "the never-finishing job to be running",
      async () =>
        (await call("GET", `/v1/jobs/${jobs.cancelled}`)).status === "running" ? true : undefined,
      30_000,
    );
    await call("POST", `/v1/jobs/${jobs.cancelled}/cancel`);
    for (const [status, id] of Object.entries(jobs))
      await waitFor(
        `job ${id} to end ${status}`,
        async () => ((await call("GET", `/v1/jobs/${id}`)).status === status ? true : undefined),
        60_000,
      );
    child.process.kill("SIGTERM");
    expect(await child.exited).toBe(0);

    const lines = child.stderr
      .join("")
      .split("\n")
      .filter((line) => line !== "");
    const parsed = lines.map((line, i) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`stderr line ${i} is not JSON: ${line}`);
      }
    });
    expect(parsed.length).toBeGreaterThan(Object.keys(jobs).length * 3);
    for (const line of parsed) {
      expect(Object.keys(line).slice(0, 4)).toEqual(["timestamp", "level", "service", "message"]);
      const named = JOB_ID.exec(String(line.message))?.[1];
      if (named !== undefined) expect(line.jobId, String(line.message)).toBe(named);
      if (line.jobId !== undefined) expect(line.keyId, String(line.message)).not.toBe(apiKey);
    }
    for (const [status, id] of Object.entries(jobs)) {
      const about = parsed.filter((line) => line.jobId === id);
      expect(
        about.some((line) => line.step === "Submit"),
        status,
      ).toBe(true);
      // Submit made the upstream task: from its last line on, every line names it.
      const submitted = about.findLastIndex((line) => line.step === "Submit");
      const taskIds = new Set(about.slice(submitted).map((line) => line.upstreamTaskId));
      expect([...taskIds], status).toEqual([expect.stringMatching(/\S/)]);
      expect(
        about.every((line) => line.model === "gamma-3.1"),
        status,
      ).toBe(true);
      expect(about.at(-1)?.keyId, status).toEqual(expect.any(String));
    }
    expect(lines.join("\n")).not.toContain(apiKey);
  }, 120_000);
});
