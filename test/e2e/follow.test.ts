/**
 * Streams: GET /v1/jobs/{id}/events shows each of a job's states in order
 * and ends after the terminal one; a reconnect with Last-Event-ID gets the rest and nothing twice;
 * GET /v1/batches/{id}/events counts always sum to the batch's total and end with `completed`;
 * another project's job or batch is 404. On the local stack, over real HTTP.
 */
import { createClient, type StreamFrame } from "@reelay/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  postJson,
  STACK_START_MS,
  startTestStack,
  type TestStack,
} from "./support/stack.ts";

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
}, STACK_START_MS);
afterAll(async () => {
  await stack?.dispose();
});

interface Frame {
  id: string;
  event: string;
  data: any;
}

/**
 * Reads Server-Sent Events from `path` until the stream ends or `stopAfter` frames came (then the
 * connection is dropped, as a client that goes away).
 */
async function readFrames(
  path: string,
  key: string,
  options: { lastEventId?: string; stopAfter?: number } = {},
): Promise<{ status: number; frames: Frame[]; ended: boolean }> {
  const controller = new AbortController();
  const response = await fetch(`${stack.url}${path}`, {
    headers: {
      ...bearer(key),
      ...(options.lastEventId === undefined ? {} : { "last-event-id": options.lastEventId }),
    },
    signal: controller.signal,
  });
  if (response.status !== 200 || response.body === null) {
    await response.body?.cancel();
    return { status: response.status, frames: [], ended: true };
  }
  const frames: Frame[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { status: 200, frames, ended: true };
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const field = (name: string) =>
        block
          .split("\n")
          .find((line) => line.startsWith(`${name}:`))
          ?.slice(name.length + 1)
          .trim();
      const data = field("data");
      if (data === undefined) continue;
      frames.push({ id: field("id") ?? "", event: field("event") ?? "", data: JSON.parse(data) });
      if (options.stopAfter !== undefined && frames.length >= options.stopAfter) {
        controller.abort();
        return { status: 200, frames, ended: false };
      }
    }
  }
}

async function createJob(key: string, prompt: string): Promise<string> {
  const made = await postJson(`${stack.url}/v1/video/generations`, key, {
    model: "gamma-3.1",
    prompt,
    duration_sec: 4,
  });
  expect(made.status).toBe(200);
  return made.body.task_id as string;
}

async function otherProjectKey(): Promise<string> {
  const made = await postJson(`${stack.url}/v1/keys`, stack.apiKey, { project: "elsewhere" });
  expect(made.status).toBe(201);
  return made.body.key as string;
}

const statusesOf = (frames: Frame[]) =>
  frames.filter((f) => f.event === "status").map((f) => f.data.status as string);

describe("a job's own stream", () => {
  it("shows each state in order and ends after the terminal one, whose data is the whole job with its output", async () => {
    const id = await createJob(stack.apiKey, "a lantern on a pier");
    const { frames, ended } = await readFrames(`/v1/jobs/${id}/events`, stack.apiKey);
    expect(ended).toBe(true);
    const statuses = statusesOf(frames);
    expect(statuses.at(-1)).toBe("succeeded");
    expect(statuses[0]).toBe("queued");
    expect(statuses).toContain("running");
    // In the order the job passed them, each once.
    const order = ["queued", "running", "downloading", "succeeded"];
    expect([...statuses].sort((a, b) => order.indexOf(a) - order.indexOf(b))).toEqual(statuses);
    expect(new Set(statuses).size).toBe(statuses.length);
    const last = frames.at(-1);
    expect(last?.event).toBe("status");
    expect(last?.data).toMatchObject({ id, status: "succeeded" });
    expect(JSON.stringify(last?.data)).toContain("http");
    // Ids grow, so a reconnect can name where it stopped.
    expect(new Set(frames.map((f) => f.id)).size).toBe(frames.length);
  });

  it("a reconnect with Last-Event-ID gets the rest of the states and nothing twice", async () => {
    const id = await createJob(stack.apiKey, "a kite over dunes");
    const first = await readFrames(`/v1/jobs/${id}/events`, stack.apiKey, { stopAfter: 1 });
    expect(first.ended).toBe(false);
    const rest = await readFrames(`/v1/jobs/${id}/events`, stack.apiKey, {
      lastEventId: first.frames.at(-1)?.id ?? "",
    });
    const all = [...first.frames, ...rest.frames];
    const ids = all.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    const statuses = statusesOf(all);
    expect(statuses[0]).toBe("queued");
    expect(statuses.at(-1)).toBe("succeeded");
    expect(new Set(statuses).size).toBe(statuses.length);
    // The whole history, as the record keeps it: no status skipped across the reconnect.
    const record = await fetch(`${stack.url}/v1/jobs/${id}`, { headers: bearer(stack.apiKey) });
    const history = ((await record.json()) as { history: { status: string }[] }).history;
    expect(statuses).toEqual(history.map((entry) => entry.status));
  });

  it("another project's job is 404, and so is an unknown one", async () => {
    const id = await createJob(stack.apiKey, "a teapot in fog");
    const stranger = await otherProjectKey();
    expect((await readFrames(`/v1/jobs/${id}/events`, stranger)).status).toBe(404);
    const unknown = "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T";
    expect((await readFrames(`/v1/jobs/${unknown}/events`, stack.apiKey)).status).toBe(404);
  });
});

describe("a batch's own stream", () => {
  it("every frame's counts sum to the total, and it ends with completed once every job ended", async () => {
    const request = { model: "gamma-3.1", prompt: "a row of paper lanterns", duration_sec: 4 };
    const made = await postJson(`${stack.url}/v1/batches`, stack.apiKey, {
      requests: [request, request, request],
    });
    expect(made.status).toBe(200);
    const id = made.body.id as string;
    const { frames, ended } = await readFrames(`/v1/batches/${id}/events`, stack.apiKey);
    expect(ended).toBe(true);
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) {
      const counts = Object.values(frame.data.counts as Record<string, number>);
      expect(counts.reduce((sum, n) => sum + n, 0)).toBe(3);
      expect(frame.data.total).toBe(3);
    }
    expect(frames.at(-1)?.event).toBe("completed");
    expect(frames.at(-1)?.data.counts.succeeded).toBe(3);
    // A reconnect after the end: the final view once more only if it was not the last one seen.
    const again = await readFrames(`/v1/batches/${id}/events`, stack.apiKey, {
      lastEventId: frames.at(-1)?.id ?? "",
    });
    expect(again).toMatchObject({ status: 200, frames: [], ended: true });
    const stranger = await otherProjectKey();
    expect((await readFrames(`/v1/batches/${id}/events`, stranger)).status).toBe(404);
  });
});

describe("@reelay/client on the streams", () => {
  it("jobEvents yields the job's statuses in order to its end, also behind a proxy that ends each answer after one frame (it reconnects with Last-Event-ID)", async () => {
    const id = await createJob(stack.apiKey, "a heron in reeds");
    const direct = createClient({ baseUrl: stack.url, apiKey: stack.apiKey });
    const frames: StreamFrame[] = [];
    for await (const frame of direct.jobEvents(id)) frames.push(frame);
    const statuses = frames.filter((f) => f.event === "status").map((f) => f.data.status);
    expect(statuses[0]).toBe("queued");
    expect(statuses.at(-1)).toBe("succeeded");

    // A buffering proxy's stand-in (no local one exists): each answer is cut after its first frame.
    const id2 = await createJob(stack.apiKey, "a heron at dusk");
    const proxied = createClient({ baseUrl: stack.url, apiKey: stack.apiKey, fetch: oneFrameEach });
    const again: StreamFrame[] = [];
    for await (const frame of proxied.jobEvents(id2)) again.push(frame);
    const ids = again.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    const history = await fetch(`${stack.url}/v1/jobs/${id2}`, { headers: bearer(stack.apiKey) });
    const entries = ((await history.json()) as { history: { status: string }[] }).history;
    expect(again.filter((f) => f.event === "status").map((f) => f.data.status)).toEqual(
      entries.map((entry) => entry.status),
    );
  });

  it("batches.events yields counts that sum to the total, ending with completed", async () => {
    const client = createClient({ baseUrl: stack.url, apiKey: stack.apiKey });
    const request = { model: "gamma-3.1", prompt: "two kites", duration_sec: 4 };
    const batch = await client.batches.create([request, request]);
    const frames: StreamFrame[] = [];
    for await (const frame of client.batches.events(batch.id)) frames.push(frame);
    for (const frame of frames) {
      const counts = Object.values(frame.data.counts as Record<string, number>);
      expect(counts.reduce((sum, n) => sum + n, 0)).toBe(2);
    }
    expect(frames.at(-1)?.event).toBe("completed");
  });
});

/** fetch, with a stream's body cut after its first data frame (the connection then ends). */
async function oneFrameEach(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  const url = input instanceof Request ? input.url : String(input);
  if (!url.endsWith("/events") || response.body === null) return response;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const frame = /(^|\n)data:[^\n]*\n\n/;
  let text = "";
  let match = frame.exec(text);
  while (match === null) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    match = frame.exec(text);
  }
  await reader.cancel();
  const cut = match === null ? text : text.slice(0, match.index + match[0].length);
  return new Response(cut, { status: response.status, headers: response.headers });
}
