/**
 * The simulator as a Lambda function behind a Function URL (the deployed simulator of a trial
 * stage). Each instance starts the same HTTP server the tests and the local stack use, on
 * loopback, at its first request, and hands every request to it as it came: the server's
 * behaviour is the one everywhere else. Its download links name the URL's own host, and its task
 * ids carry their tasks (portable-ids.ts), so whichever instance answers a poll or a download
 * knows the task another instance made.
 *
 * What a buffered Function URL cannot pass on: a connection the server drops (the `reset` fault,
 * and `truncate` part way through a download) answers 502 instead, which a client retries as it
 * would the reset; and an answer above Lambda's 6 MB (about 4.5 MB of video once encoded) fails.
 */
import { startSimulator } from "./server.ts";
import type { Simulator, SimulatorOptions } from "./types.ts";

/** A Lambda Function URL request (payload format 2.0), as far as the simulator reads it. */
export interface FunctionUrlEvent {
  rawPath: string;
  rawQueryString?: string;
  headers?: Record<string, string | undefined>;
  body?: string;
  isBase64Encoded?: boolean;
  requestContext: { domainName: string; http: { method: string } };
}

export interface FunctionUrlResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded: boolean;
}

export type SimulatorHandler = ((event: FunctionUrlEvent) => Promise<FunctionUrlResult>) & {
  /** Stops this instance's server (tests; Lambda ends an instance with its process). */
  close(): Promise<void>;
};

/** Headers of one connection, not of the request or answer they travel with. */
const HOP_BY_HOP = new Set([
  "host",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
]);

function requestHeaders(event: FunctionUrlEvent): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {}))
    if (value !== undefined && !HOP_BY_HOP.has(name.toLowerCase())) headers.set(name, value);
  return headers;
}

function requestBody(event: FunctionUrlEvent): Buffer | undefined {
  if (event.body === undefined || event.body === "") return undefined;
  return Buffer.from(event.body, event.isBase64Encoded === true ? "base64" : "utf8");
}

/**
 * Where clients reach this function: a Function URL answers over https (and says so); the
 * rehearsal's stand-in over http. Nothing else is taken from the header.
 */
function originOf(event: FunctionUrlEvent): string {
  const scheme = event.headers?.["x-forwarded-proto"] === "http" ? "http" : "https";
  return `${scheme}://${event.requestContext.domainName}`;
}

const DROPPED: FunctionUrlResult = {
  statusCode: 502,
  headers: { "content-type": "application/json; charset=utf-8" },
  body: JSON.stringify({
    error: { code: "connection_dropped", message: "The simulator dropped the connection" },
  }),
  isBase64Encoded: false,
};

/** One request through the loopback server, its answer whole. */
async function forward(origin: string, event: FunctionUrlEvent): Promise<FunctionUrlResult> {
  const query = event.rawQueryString ? `?${event.rawQueryString}` : "";
  const body = requestBody(event);
  try {
    const res = await fetch(`${origin}${event.rawPath}${query}`, {
      method: event.requestContext.http.method,
      headers: requestHeaders(event),
      redirect: "manual",
      ...(body === undefined ? {} : { body }),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name)) headers[name] = value;
    });
    return {
      statusCode: res.status,
      headers,
      body: bytes.toString("base64"),
      isBase64Encoded: true,
    };
  } catch {
    return DROPPED;
  }
}

/**
 * The handler: `options` (the key, read from its secret) are asked for at an instance's first
 * request; a failure there fails that request, and the next asks again.
 */
export function simulatorHandler(options: () => Promise<SimulatorOptions>): SimulatorHandler {
  let started: Promise<Simulator> | undefined;
  const handler = async (event: FunctionUrlEvent): Promise<FunctionUrlResult> => {
    started ??= options()
      .then((chosen) =>
        startSimulator({
          ...chosen,
          host: "127.0.0.1",
          port: 0,
          publicOrigin: originOf(event),
        }),
      )
      .catch((error: unknown) => {
        started = undefined;
        throw error;
      });
    const sim = await started;
    return forward(sim.origin, event);
  };
  const close = async (): Promise<void> => {
    const sim = await started?.catch(() => undefined);
    started = undefined;
    await sim?.close();
  };
  return Object.assign(handler, { close });
}
