import { afterEach } from "vitest";
import { startSimulator, type Simulator, type SimulatorOptions } from "../src/index.ts";

const KEY = "test-key";
export const AUTH = { authorization: `Bearer ${KEY}` };

const running: Simulator[] = [];

/** A simulator on an ephemeral port, closed after the test. */
export async function sim(options: SimulatorOptions = {}): Promise<Simulator> {
  const s = await startSimulator({ apiKey: KEY, generationMs: 200, ...options });
  running.push(s);
  return s;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

export async function post(
  s: Simulator,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${s.url}${path}`, {
    method: "POST",
    headers: { ...AUTH, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export async function get(
  s: Simulator,
  path: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${s.url}${path}`, { headers: { ...AUTH, ...headers } });
}

export async function createVideo(
  s: Simulator,
  prompt = "a cat surfing",
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await post(s, "/video/generations", { model: "alpha-2.7", prompt }, headers);
  if (res.status !== 200) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { task_id?: string; service_task?: { task_id?: string } };
  const id = body.service_task?.task_id ?? body.task_id;
  if (id === undefined) throw new Error(`no task id in ${JSON.stringify(body)}`);
  return id;
}

/** Polls until `done` says so; the bound is generous because CI machines are slow, never a timing assertion. */
export async function pollUntil<T>(
  fn: () => Promise<T>,
  done: (v: T) => boolean,
  limitMs = 10_000,
): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await fn();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A clock the test moves by hand, so lifecycle tests never wait. */
export function fakeClock(start = 1_700_000_000_000): {
  now: () => number;
  advance: (ms: number) => void;
} {
  let t = start;
  const advance = (ms: number) => {
    t += ms;
  };
  return { now: () => t, advance };
}

export async function pollJson(s: Simulator, id: string): Promise<Record<string, unknown>> {
  const res = await get(s, `/video/tasks/${id}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Succeeds a video task at once (fake clock) and returns its signed URL from the standard dialect. */
export async function finishedVideoUrl(
  s: Simulator,
  clock: { advance: (ms: number) => void },
  prompt?: string,
): Promise<{ id: string; url: string }> {
  const id = await createVideo(s, prompt);
  clock.advance(10_000); // past generationMs, well inside urlTtlMs
  const body = (await pollJson(s, id)) as { service_task: { output?: { video_url?: string } } };
  const url = body.service_task.output?.video_url;
  if (url === undefined) throw new Error(`no video url in ${JSON.stringify(body)}`);
  return { id, url };
}
