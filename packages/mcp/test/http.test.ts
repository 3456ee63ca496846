/**
 * POST /mcp on the API itself (streamable HTTP, stateless), driven by the official SDK's Client
 * over HTTP with the caller's bearer key, against a local stack started here.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { LocalStack } from "@reelay/local";
import { describe, expect, it } from "vitest";
import { call, text, toolScenarios } from "./support.ts";

async function connect(stack: LocalStack, key: string): Promise<Client> {
  const client = new Client({ name: "reelay-mcp-test", version: "0.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", stack.url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

describe("/mcp over streamable HTTP with the SDK's client", () => {
  const { stack, mcp } = toolScenarios((started) => connect(started, started.apiKey));

  it("refuses a wrong key with 401 before any tool runs", async () => {
    // The SDK's StreamableHTTPError carries the HTTP status as its code.
    await expect(connect(stack(), "rk_wrong")).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('"code":"unauthorized"'),
    });
    const answer = await fetch(new URL("/mcp", stack().url), {
      method: "POST",
      headers: {
        Authorization: "Bearer rk_wrong",
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
  });

  it("allows a tool what its route allows the key: a read-only key's generate_video is scope_missing", async () => {
    const made = await fetch(new URL("/v1/keys", stack().url), {
      method: "POST",
      headers: { Authorization: `Bearer ${stack().apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "mcp-read-only", scopes: ["read"] }),
    });
    const { key } = (await made.json()) as { key: string };
    const reader = await connect(stack(), key);
    try {
      expect((await call(reader, "list_models", {})).isError).toBeFalsy();
      const refused = await call(reader, "generate_video", {
        request: { model: "gamma-3.1", prompt: "a red bicycle", duration_sec: 4 },
      });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/^scope_missing: /);
    } finally {
      await reader.close();
    }
  });

  it("makes an image and answers it as a link and, asked, as image content", async () => {
    const created = await call(mcp(), "generate_image", { prompt: "a lighthouse at dusk" });
    expect(created.isError, text(created)).toBeFalsy();
    const id = /imgtsk_\w+/.exec(text(created))?.[0];
    const done = await call(mcp(), "wait_for_job", { job_id: id, image_content: true });
    expect(text(done)).toContain(`${id} succeeded`);
    const kinds = done.content.map((block) => block.type);
    expect(kinds).toContain("resource_link");
    const image = done.content.find((block) => block.type === "image");
    expect(image).toMatchObject({ mimeType: expect.stringMatching(/^image\//) });
  }, 60_000);

  it("creates a batch, reads it back and reports usage", async () => {
    const created = await call(mcp(), "create_batch", {
      requests: [
        { model: "gamma-3.1", prompt: "one", duration_sec: 4 },
        { model: "gamma-3.1", prompt: "two", duration_sec: 99 },
      ],
    });
    expect(created.isError, text(created)).toBeFalsy();
    const id = /bat_\w+/.exec(text(created))?.[0];
    expect(text(created)).toContain(`Created batch ${id} of 2 requests`);
    const batch = await call(mcp(), "get_batch", { batch_id: id });
    expect(batch.isError, text(batch)).toBeFalsy();
    expect(text(batch)).toContain(`"total": 2`);
    const usage = await call(mcp(), "usage", { group_by: "model" });
    expect(usage.isError, text(usage)).toBeFalsy();
  });
});
