/** The same app over real HTTP on 127.0.0.1 (as the local stack serves it), used as a plain contract client would. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JsonlFileSink } from "@reelay/core/adapters";
import { buildTerminalEvent, type ReelayEvent, type TerminalEvent } from "@reelay/core/domain";
import { startLocalAws, type LocalAws } from "../../core/test/support/local-aws.ts";
import { serveApp, type RunningServer } from "../src/serve.ts";
import { API_KEY, harness, succeed, VALID, type Harness } from "./support/harness.ts";

let aws: LocalAws;
let dir: string;
let bus: JsonlFileSink;
let h: Harness;
let server: RunningServer;
let open = 0;

beforeAll(async () => {
  aws = await startLocalAws();
  dir = await mkdtemp(join(tmpdir(), "reelay-api-http-"));
  bus = new JsonlFileSink(join(dir, "events.jsonl"));
  // Counts live subscriptions, so a test can see a closed stream let go of its listener.
  const events = {
    subscribe(listener: (event: ReelayEvent) => void) {
      open += 1;
      const unsubscribe = bus.subscribe(listener);
      return () => {
        open -= 1;
        return unsubscribe();
      };
    },
  };
  h = await harness(aws, { eventStream: events, sseHeartbeatMs: 50 });
  server = await serveApp(h.app);
});
afterAll(async () => {
  await server.close();
  await aws.stop();
  await rm(dir, { recursive: true, force: true });
});

const headers = { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json" };

/** Reads a stream as text, chunk by chunk, until a condition on everything read so far holds. */
function textReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  return {
    async until(done: (text: string) => boolean): Promise<string> {
      while (!done(text)) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`stream ended early after: ${JSON.stringify(text)}`);
        text += decoder.decode(chunk.value, { stream: true });
      }
      return text;
    },
    cancel: () => reader.cancel(),
  };
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1)
    await new Promise((resolve) => setTimeout(resolve, 25));
  if (!check()) throw new Error(`never happened: ${what}`);
}

describe("over real HTTP with @hono/node-server", () => {
  it("a contract client creates a task at base URL /v1, polls it, and downloads the video from video_url", async () => {
    const base = `${server.url}/v1`;
    const create = await fetch(`${base}/video/generations`, {
      method: "POST",
      headers,
      body: JSON.stringify(VALID),
    });
    expect(create.status).toBe(200);
    const created = (await create.json()) as { service_task: { task_id: string } };
    const taskId = created.service_task.task_id;

    const before = (await (await fetch(`${base}/video/tasks/${taskId}`, { headers })).json()) as {
      status: string;
      video_url?: string;
    };
    expect(before.status).toBe("queued");
    expect(before.video_url).toBeUndefined();

    const bytes = new TextEncoder().encode("video bytes over http");
    await succeed(h, taskId, bytes);
    const after = (await (await fetch(`${base}/video/tasks/${taskId}`, { headers })).json()) as {
      status: string;
      video_url: string;
    };
    expect(after.status).toBe("succeeded");
    expect(new Uint8Array(await (await fetch(after.video_url)).arrayBuffer())).toEqual(bytes);
  });

  it("a 401 over HTTP carries WWW-Authenticate: Bearer", async () => {
    const response = await fetch(`${server.url}/v1/jobs`);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
  });

  it("GET /v1/events streams each terminal event as `event: <detail-type>` with its JSON, plus heartbeat comments", async () => {
    const response = await fetch(`${server.url}/v1/events`, { headers });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const stream = textReader(response.body as ReadableStream<Uint8Array>);
    // The first comment is written after the subscription, so an event emitted now is not missed.
    await stream.until((text) => text.includes(": subscribed\n\n"));

    const id = (await (
      await fetch(`${server.url}/v1/video/generations`, {
        method: "POST",
        headers,
        body: JSON.stringify(VALID),
      })
    ).json()) as { task_id: string };
    const job = await succeed(h, id.task_id, new Uint8Array([1, 2, 3]));
    const event = buildTerminalEvent(job);
    await bus.emit(event);
    const marker = "event: Generation Succeeded";
    const text = await stream.until(
      (seen) =>
        seen.includes(marker) && seen.slice(seen.indexOf(marker)).includes(": heartbeat\n\n"),
    );
    await stream.cancel();

    expect(text.startsWith(": subscribed\n\n")).toBe(true);
    const block = text.slice(text.indexOf("event: Generation Succeeded")).split("\n\n")[0] ?? "";
    const data =
      block
        .split("\n")
        .find((line) => line.startsWith("data: "))
        ?.slice("data: ".length) ?? "";
    const sent = JSON.parse(data) as TerminalEvent;
    expect(sent.detail.jobId).toBe(id.task_id);
    expect(sent["detail-type"]).toBe("Generation Succeeded");
    expect(block).toContain(`id: ${event.id}`);
    expect(text).toContain(": heartbeat\n\n");
  });

  it("closing an event stream unsubscribes its listener", async () => {
    await eventually(() => open === 0, "earlier streams let go");
    const response = await fetch(`${server.url}/v1/events`, { headers });
    const stream = textReader(response.body as ReadableStream<Uint8Array>);
    await stream.until((text) => text.includes(": subscribed"));
    expect(open).toBe(1);
    await stream.cancel();
    await eventually(() => open === 0, "the closed stream's listener was removed");
  });
});
