/**
 * `reelay mcp` as a desktop client runs it: the real binary as a child process over stdio, driven
 * by the official SDK's Client, against a local stack started here.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { solidPng } from "../../simulator/src/png.ts";
import { call, text, toolScenarios } from "./support.ts";

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

describe("reelay mcp over stdio with the SDK's client", () => {
  // The key comes from the stack's key file, as `npx reelay mcp` beside `npm start` finds it.
  const { stack, mcp } = toolScenarios((started) =>
    connect({ REELAY_API_URL: started.url, REELAY_DATA_DIR: started.dataDir }),
  );

  it("generate_video uploads a first frame given as a path on this machine; the job keeps its upload:// reference", async () => {
    const dir = await mkdtemp(join(tmpdir(), "reelay-mcp-upload-"));
    const photo = join(dir, "photo.png");
    await writeFile(photo, solidPng("mcp-frame"));
    const result = await call(mcp(), "generate_video", {
      request: {
        model: "gamma-3.1",
        prompt: "the boat sails off",
        duration_sec: 4,
        frame_images: [{ type: "image_url", frame_type: "first_frame", image_url: { url: photo } }],
      },
    });
    expect(result.isError, text(result)).toBeFalsy();
    const id = /vidtsk_\w+/.exec(text(result))?.[0];
    const job = (await (
      await fetch(`${stack().url}/v1/jobs/${id}`, {
        headers: { authorization: `Bearer ${stack().apiKey}` },
      })
    ).json()) as { request: { frame_images: { image_url: { url: string } }[] } };
    expect(job.request.frame_images[0]?.image_url.url).toMatch(/^upload:\/\/upl_/);
  });

  it("refuses a wrong key with a tool error saying so, and goes on answering", async () => {
    const wrong = await connect({ REELAY_API_URL: stack().url, REELAY_API_KEY: "rk_wrong" });
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
