/**
 * The throughput benchmark's client, in a process of its own so its work does not share the
 * stack's event loop. Plain fetch, as any user's client. Two modes, the same concurrency:
 *
 *   client reelay   <apiUrl> <apiKey> <jobs> <concurrency> <body JSON>
 *     Video jobs through reelay's API, each followed to its end on GET /v1/events (one stream for
 *     all). Per job: the POST's start, the terminal event's arrival and the event itself.
 *   client upstream <simUrl> <simKey> <jobs> <concurrency> <body JSON>
 *     The same tasks straight against the simulator: create, poll until done, download to nowhere.
 *
 * Prints one JSON line: { wallMs, cpuMs, jobs: [...] } with epoch-millisecond times; cpuMs is this
 * process's own CPU time (user + system) up to the print.
 */
import type { TerminalEvent } from "@reelay/core/domain";

const [mode, baseUrl, key, jobsArg, concurrencyArg, bodyArg] = process.argv.slice(2);
if (
  baseUrl === undefined ||
  key === undefined ||
  jobsArg === undefined ||
  concurrencyArg === undefined ||
  bodyArg === undefined
) {
  throw new Error("usage: client reelay|upstream <url> <key> <jobs> <concurrency> <body JSON>");
}
const total = Number(jobsArg);
const concurrency = Number(concurrencyArg);
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };

export interface ReelayJobResult {
  id: string;
  postAt: number;
  terminalAt: number;
  event: TerminalEvent;
}

export interface UpstreamTaskResult {
  id: string;
  startAt: number;
  doneAt: number;
  polls: number;
  bytes: number;
}

async function postJson(url: string, body: string): Promise<any> {
  const response = await fetch(url, { method: "POST", headers, body });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`POST ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** Runs `work(i)` for i in [0, total) with at most `concurrency` at once. */
async function pool<T>(work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, total) }, async () => {
      while (next < total) {
        const i = next++;
        results[i] = await work(i);
      }
    }),
  );
  return results;
}

/** Every terminal event from GET /v1/events, by job id, with its arrival time. */
async function followEvents(apiUrl: string): Promise<{
  ended: (id: string) => Promise<{ at: number; event: TerminalEvent }>;
  close: () => void;
}> {
  const controller = new AbortController();
  const response = await fetch(`${apiUrl}/v1/events`, { headers, signal: controller.signal });
  if (!response.ok || response.body === null)
    throw new Error(`GET /v1/events answered ${response.status}`);
  const seen = new Map<string, { at: number; event: TerminalEvent }>();
  const waiting = new Map<string, (value: { at: number; event: TerminalEvent }) => void>();
  let subscribed!: () => void;
  const ready = new Promise<void>((resolve) => (subscribed = resolve));
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      for (let end = buffered.indexOf("\n\n"); end >= 0; end = buffered.indexOf("\n\n")) {
        const message = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (message.startsWith(": subscribed")) subscribed();
        const data = message.split("\n").find((line) => line.startsWith("data: "));
        if (data === undefined) continue;
        const event = JSON.parse(data.slice(6)) as TerminalEvent;
        const ending = { at: Date.now(), event };
        seen.set(event.detail.jobId, ending);
        waiting.get(event.detail.jobId)?.(ending);
      }
    }
  })().catch(() => undefined);
  await ready;
  return {
    ended: (id) => {
      const known = seen.get(id);
      return known !== undefined
        ? Promise.resolve(known)
        : new Promise((resolve) => waiting.set(id, resolve));
    },
    close: () => controller.abort(),
  };
}

async function throughReelay(apiUrl: string, body: string): Promise<ReelayJobResult[]> {
  const events = await followEvents(apiUrl);
  try {
    return await pool(async () => {
      const postAt = Date.now();
      const created = await postJson(`${apiUrl}/v1/video/generations`, body);
      const id = String(created.task_id ?? created.id);
      const { at, event } = await events.ended(id);
      return { id, postAt, terminalAt: at, event };
    });
  } finally {
    events.close();
  }
}

async function straightToUpstream(simUrl: string, body: string): Promise<UpstreamTaskResult[]> {
  return pool(async () => {
    const startAt = Date.now();
    const created = await postJson(`${simUrl}/video/generations`, body);
    const id = String(created.task_id);
    let polls = 0;
    let url: string | undefined;
    while (url === undefined) {
      polls++;
      const response = await fetch(`${simUrl}/video/tasks/${id}`, { headers });
      const task = (await response.json()) as {
        status?: string;
        service_task?: { output?: { video_url?: string } };
      };
      if (task.status === "failed") throw new Error(`task ${id} failed`);
      url = task.service_task?.output?.video_url;
    }
    const download = await fetch(url);
    let bytes = 0;
    for await (const chunk of download.body as AsyncIterable<Uint8Array>) bytes += chunk.length;
    return { id, startAt, doneAt: Date.now(), polls, bytes };
  });
}

const started = Date.now();
const jobs =
  mode === "reelay"
    ? await throughReelay(baseUrl, bodyArg)
    : await straightToUpstream(baseUrl, bodyArg);
const wallMs = Date.now() - started;
// This process is a child of the one it measures: that one takes this CPU time out of its tree's.
const { user, system } = process.cpuUsage();
console.log(JSON.stringify({ wallMs, cpuMs: (user + system) / 1000, jobs }));
