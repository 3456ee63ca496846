/**
 * What the stdio and HTTP tests share: one local stack for a file (simulator at 1/50 of real time)
 * and the scenarios the acceptance asks of both transports, run with the SDK's own Client.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { loadConfig } from "@reelay/core/wiring";
import { type LocalStack, startLocalStack } from "@reelay/local";
import { afterAll, beforeAll, expect, it } from "vitest";

async function startStack(): Promise<LocalStack> {
  const dataDir = await mkdtemp(join(tmpdir(), "reelay-mcp-"));
  return startLocalStack({
    config: { ...loadConfig({ REELAY_DATA_DIR: dataDir }), port: 0 },
    simulator: { timeScale: 0.02 },
    quiet: true,
    s3Port: 0,
    previews: false,
    // s3rver in this process: its child's start would cost more CPU than these tests' jobs.
    s3InChild: false,
  });
}

export async function call(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export const text = (result: CallToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");

const jobIdIn = (result: CallToolResult) => /\b(vidtsk|imgtsk)_\w+/.exec(text(result))?.[0] ?? "";

async function jobCount(stack: LocalStack): Promise<number> {
  const response = await fetch(`${stack.url}/v1/jobs?limit=100`, {
    headers: { authorization: `Bearer ${stack.apiKey}` },
  });
  return ((await response.json()) as { data: unknown[] }).data.length;
}

/**
 * One stack for the describe block and a client connected to it by `connect` with a good key,
 * and the tests every transport must pass; answers both for the block's own tests.
 */
export function toolScenarios(connect: (stack: LocalStack) => Promise<Client>): {
  stack: () => LocalStack;
  mcp: () => Client;
} {
  let started: LocalStack | undefined;
  let connected: Client | undefined;
  /** Every progress notification that reached the client's transport, handled or not. */
  const arrived: Progress[] = [];
  const stack = () => started as LocalStack;
  const mcp = () => connected as Client;
  beforeAll(async () => {
    started = await startStack();
    connected = await connect(started);
    const transport = connected.transport;
    const handle = transport?.onmessage;
    if (transport === undefined || handle === undefined) throw new Error("not connected");
    transport.onmessage = (message, extra) => {
      if ("method" in message && message.method === "notifications/progress")
        arrived.push(message.params as unknown as Progress);
      handle(message, extra);
    };
  }, 60_000);
  afterAll(async () => {
    await connected?.close();
    await started?.stop();
  });

  it("lists every tool", async () => {
    const { tools } = await mcp().listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "cancel_job",
      "create_batch",
      "generate_image",
      "generate_video",
      "get_batch",
      "get_job",
      "list_models",
      "usage",
      "validate_request",
      "wait_for_job",
    ]);
  });

  it("generates a video, waits for it with progress notifications and answers its link", async () => {
    const created = await call(mcp(), "generate_video", {
      request: { model: "gamma-3.1", prompt: "a red bicycle", duration_sec: 4 },
    });
    expect(created.isError, text(created)).toBeFalsy();
    const id = jobIdIn(created);
    expect(id).toMatch(/^vidtsk_/);

    const progress: Progress[] = [];
    arrived.length = 0;
    const done = (await mcp().callTool(
      { name: "wait_for_job", arguments: { job_id: id } },
      undefined,
      { onprogress: (update) => progress.push(update), timeout: 60_000 },
    )) as CallToolResult;
    expect(done.isError, text(done)).toBeFalsy();
    expect(text(done)).toContain(`${id} succeeded`);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((update) => update.progress)).toEqual(
      progress.map((_, index) => index + 1),
    );
    // The server sends the last state before its answer. The SDK's client hands a notification
    // to its handler a microtask after reading it, but retires the handler when it reads the
    // answer, so one that arrives in the same read as the answer is dropped there
    // (modelcontextprotocol/typescript-sdk#2580): the last one is checked as it arrived.
    expect(arrived.at(-1)?.message).toContain(`${id} succeeded`);
    expect(progress.map((update) => update.message)).toEqual(
      arrived.slice(0, progress.length).map((update) => update.message),
    );
    const links = done.content.filter((block) => block.type === "resource_link");
    expect(links).toHaveLength(1);
    const link = links[0] as { uri: string; mimeType?: string };
    expect(link.mimeType).toBe("video/mp4");
    expect((await fetch(link.uri)).status).toBe(200);
  }, 60_000);

  it("answers duration_sec: 99 as a tool error naming duration_sec", async () => {
    const request = { model: "gamma-3.1", prompt: "a red bicycle", duration_sec: 99 };
    for (const [tool, args] of [
      ["generate_video", { request }],
      ["validate_request", { request }],
    ] as const) {
      const result = await call(mcp(), tool, args);
      expect(result.isError, tool).toBe(true);
      expect(text(result), tool).toMatch(/invalid_request[\s\S]*- duration_sec: /);
    }
  });

  it("with fit nearest, validate_request and generate_video move a refused duration and answer the move", async () => {
    const request = { model: "os-2", prompt: "a red bicycle", duration_sec: 5 };
    const moved = '"path": "duration_sec",\n      "from": 5,\n      "to": 4';
    const checked = await call(mcp(), "validate_request", { request, fit: "nearest" });
    expect(checked.isError, text(checked)).toBeFalsy();
    expect(text(checked)).toContain("Valid once fitted");
    expect(text(checked)).toContain(moved);
    const created = await call(mcp(), "generate_video", { request, fit: "nearest" });
    expect(created.isError, text(created)).toBeFalsy();
    expect(text(created)).toContain(moved);
  });

  it("passes user through: the jobs generate_video and create_batch make are for that end user", async () => {
    const request = { model: "gamma-3.1", prompt: "a red bicycle", duration_sec: 4 };
    const created = await call(mcp(), "generate_video", { request, user: "u-mcp" });
    expect(created.isError, text(created)).toBeFalsy();
    const batch = await call(mcp(), "create_batch", { requests: [request], user: "u-batch" });
    expect(batch.isError, text(batch)).toBeFalsy();
    const listed = async (user: string) => {
      const response = await fetch(`${stack().url}/v1/jobs?user=${user}`, {
        headers: { authorization: `Bearer ${stack().apiKey}` },
      });
      return ((await response.json()) as { data: { id: string; user?: string }[] }).data;
    };
    expect((await listed("u-mcp")).map((job) => [job.id, job.user])).toEqual([
      [jobIdIn(created), "u-mcp"],
    ]);
    expect((await listed("u-batch")).map((job) => job.user)).toEqual(["u-batch"]);
  });

  it("validates a good request without making a job", async () => {
    const before = await jobCount(stack());
    const result = await call(mcp(), "validate_request", {
      request: { model: "gamma-3.1", prompt: "a red bicycle", duration_sec: 4 },
    });
    expect(result.isError, text(result)).toBeFalsy();
    expect(text(result)).toContain("Valid");
    expect(await jobCount(stack())).toBe(before);
  });

  it("cancels a job", async () => {
    const created = await call(mcp(), "generate_video", {
      request: { model: "gamma-3.1", prompt: "a slow sunrise", duration_sec: 8 },
    });
    const id = jobIdIn(created);
    const cancelled = await call(mcp(), "cancel_job", { job_id: id });
    expect(cancelled.isError, text(cancelled)).toBeFalsy();
    const job = await call(mcp(), "get_job", { job_id: id });
    expect(text(job)).toContain(`${id} cancelled`);
  });
  return { stack, mcp };
}
