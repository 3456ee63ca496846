/**
 * A bare HTTP/1.1 client for fuzzing (node:http, no fetch): it can send what fetch refuses (a body
 * on GET, a Content-Length that lies, chunked bodies of any size, odd methods) and reads at most the
 * first chunk of an event stream. Plus the one check every answer must pass.
 */
import { request, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { expect } from "vitest";

export interface RawRequest {
  method: string;
  /** Path and query, already percent-encoded as they go on the request line. */
  path: string;
  headers?: Record<string, string>;
  /** Sent with a Content-Length (unless headers set one); an iterable is sent chunked. */
  body?: Uint8Array | string | Iterable<Uint8Array>;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const STREAMING = /^text\/event-stream/;

/** Sends one request on its own connection; an event stream is cut after its first chunk. */
export function send(base: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    let answered = false;
    const headers: Record<string, string> = { ...req.headers };
    const body = req.body;
    const fixed =
      typeof body === "string" || body instanceof Uint8Array ? Buffer.from(body) : undefined;
    if (
      fixed !== undefined &&
      !Object.keys(headers).some((name) => name.toLowerCase() === "content-length")
    ) {
      headers["content-length"] = String(fixed.length);
    }
    const client = request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers,
        agent: false,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        const streaming = STREAMING.test(res.headers["content-type"] ?? "");
        res.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          if (streaming) res.destroy();
        });
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          });
        res.on("end", done);
        res.on("close", done);
        res.on("error", () => done());
      },
    );
    // The server may answer (413) and close before the whole body is written: the answer counts.
    client.on("error", (error) => (answered ? undefined : reject(error)));
    client.setTimeout(30_000, () =>
      client.destroy(new Error(`no answer to ${req.method} ${req.path.slice(0, 80)} in 30 s`)),
    );
    // A fixed body goes in 64 KiB pieces too, so the answer is read between them: a server that
    // answers 413 on the header and closes while a large body is still being written would
    // otherwise surface as EPIPE before the client parses the answer that already arrived.
    const pieces = fixed === undefined ? body : piecesOf(fixed);
    if (pieces !== undefined && typeof pieces !== "string") {
      void (async () => {
        for (const chunk of pieces as Iterable<Uint8Array>) {
          if (answered || client.destroyed) break;
          if (!client.write(chunk)) await new Promise((resume) => client.once("drain", resume));
        }
        client.end();
      })().catch(() => undefined);
    } else {
      client.end();
    }
  });
}

/** Writes `bytes` as they are on a fresh connection and reads the one answer (status, headers, body). */
export function sendRaw(base: string, bytes: string): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(url.port), url.hostname, () => socket.write(bytes));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer in 10 s")));
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const [head = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers: IncomingHttpHeaders = {};
      for (const line of lines)
        headers[line.slice(0, line.indexOf(":")).toLowerCase()] = line
          .slice(line.indexOf(":") + 1)
          .trim();
      resolve({
        status: Number(statusLine.split(" ")[1]),
        headers,
        body: Buffer.from(rest.join("\r\n\r\n"), "latin1"),
      });
    });
  });
}

/** Stable snake_case, as every reelay error code is. */
const CODE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** Answers that are not JSON by design: documented per route (docs page, dashboard, event stream). */
/** The answers that are not JSON: pages, the event stream, assets, and /metrics' Prometheus text. */
const NON_JSON_TYPES =
  /^(text\/html|text\/event-stream|text\/javascript|text\/css|text\/plain; version=0\.0\.4)\b/;

/**
 * Never 5xx; a 4xx is `{error: {code, message}}` JSON; a 2xx is JSON unless it is one of the
 * documented non-JSON answers. `what` names the request in the failure message.
 */
export function expectWellFormed(res: RawResponse, what: string, method = "GET"): void {
  const text = res.body.toString("utf8");
  const shown = `${what} -> ${res.status} ${text.slice(0, 300)}`;
  expect(res.status, shown).toBeGreaterThanOrEqual(200);
  expect(res.status, shown).toBeLessThan(500);
  // The one redirect: a job's content route sends its caller to a presigned link.
  const redirect = res.status >= 300 && res.status < 400;
  if (redirect && /\/v1\/jobs\/[^/?]+\/content(\?|$)/.test(what.split(" ")[1] ?? "")) {
    expect(res.headers.location, shown).toBeTruthy();
    return;
  }
  expect(redirect, `${shown} (no redirects but the content route's are served)`).toBe(false);
  if (method === "HEAD") return;
  const type = String(res.headers["content-type"] ?? "");
  if (res.status >= 400) {
    expect(type, shown).toMatch(/^application\/json\b/);
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    expect(typeof body.error, shown).toBe("object");
    expect(body.error?.code, shown).toEqual(expect.stringMatching(CODE));
    expect(typeof body.error?.message === "string" && body.error.message.trim() !== "", shown).toBe(
      true,
    );
    return;
  }
  if (NON_JSON_TYPES.test(type)) return;
  expect(type, shown).toMatch(/^application\/json\b/);
  expect(() => JSON.parse(text), shown).not.toThrow();
}

function* piecesOf(buffer: Buffer): Iterable<Uint8Array> {
  for (let at = 0; at < buffer.length; at += 64 * 1024) yield buffer.subarray(at, at + 64 * 1024);
}
