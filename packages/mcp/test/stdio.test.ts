/**
 * `reelay mcp` as a desktop client runs it: the real binary as a child process over stdio, driven
 * by the official SDK's Client, against a local stack started here (simulator at 1/50 of real time).
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { loadConfig } from "@reelay/core";
import { type LocalStack, startLocalStack } from "@reelay/local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "..", "..", "cli", "bin", "reelay.js");

async function connect(env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "reelay-mcp-test", version: "0.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp"],
      env,
      stderr: "pipe",
    }),
  );
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const text = (result: CallToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");

const jobIdIn = (result: CallToolResult) => /\b(vidtsk|imgtsk)_\w+/.exec(text(result))?.[0] ?? "";

describe("reelay mcp over stdio with the SDK's client", () => {
  let stack: LocalStack;
  let mcp: Client;
  beforeAll(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "reelay-mcp-"));
    stack = await startLocalStack({
      config: { ...loadConfig({ REELAY_DATA_DIR: dataDir }), port: 0 },
      simulator: { timeScale: 0.02 },
      quiet: true,
      s3Port: 0,
    });
    // The key comes from the stack's key file, as `npx reelay mcp` beside `npm start` finds it.
    mcp = await connect({ REELAY_API_URL: stack.url, REELAY_DATA_DIR: dataDir });
  }, 60_000);
  afterAll(async () => {
    await mcp?.close();
    await stack?.stop();
  });

  it("lists every tool", async () => {
    const { tools } = await mcp.listTools();
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
    const created = await call(mcp, "generate_video", {
      request: { model: "gamma-3.1", prompt: "a red bicycle", duration_sec: 4 },
    });
    expect(created.isError, text(created)).toBeFalsy();
    const id = jobIdIn(created);
    expect(id).toMatch(/^vidtsk_/);

    const progress: Progress[] = [];
    const done = (await mcp.callTool(
      { name: "wait_for_job", arguments: { job_id: id } },
      undefined,
      {
        onprogress: (update) => progress.push(update),
        timeout: 60_000,
      },
    )) as CallToolResult;
    expect(done.isError, text(done)).toBeFalsy();
    expect(text(done)).toContain(`${id} succeeded`);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((update) => update.progress)).toEqual(
      progress.map((_, index) => index + 1),
    );
    expect(progress.at(-1)?.message).toContain(`${id} succeeded`);
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
      const result = await call(mcp, tool, args);
      expect(result.isError, tool).toBe(true);
      expect(text(result), tool).toMatch(/invalid_request[\s\S]*- duration_sec: /);
    }
  });

  it("validates a good request without making a job", async () => {
    const before = await fetch(`${stack.url}/v1/jobs`, {
      headers: { authorization: `Bearer ${stack.apiKey}` },
    }).then((response) => response.json() as Promise<{ data: unknown[] }>);
    const result = await call(mcp, "validate_request", {
      request: { model: "gamma-3.1", prompt: "a red bicycle", duration_sec: 4 },
    });
    expect(result.isError, text(result)).toBeFalsy();
    expect(text(result)).toContain("Valid");
    const after = await fetch(`${stack.url}/v1/jobs`, {
      headers: { authorization: `Bearer ${stack.apiKey}` },
    }).then((response) => response.json() as Promise<{ data: unknown[] }>);
    expect(after.data).toHaveLength(before.data.length);
  });

  it("cancels a job", async () => {
    const created = await call(mcp, "generate_video", {
      request: { model: "gamma-3.1", prompt: "a slow sunrise", duration_sec: 8 },
    });
    const id = jobIdIn(created);
    const cancelled = await call(mcp, "cancel_job", { job_id: id });
    expect(cancelled.isError, text(cancelled)).toBeFalsy();
    const job = await call(mcp, "get_job", { job_id: id });
    expect(text(job)).toContain(`${id} cancelled`);
  });

  it("refuses a wrong key with a tool error saying so, and goes on answering", async () => {
    const wrong = await connect({ REELAY_API_URL: stack.url, REELAY_API_KEY: "rk_wrong" });
    try {
      for (let i = 0; i < 2; i++) {
        const result = await call(wrong, "list_models", {});
        expect(result.isError).toBe(true);
        expect(text(result)).toMatch(/^unauthorized: The API key was refused/);
        expect(text(result)).not.toContain("rk_wrong");
      }
    } finally {
      await wrong.close();
    }
  });
});
