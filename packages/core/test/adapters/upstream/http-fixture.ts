/**
 * A real HTTP server on 127.0.0.1 that answers from a script, one step per request, and records
 * what it was sent. Used instead of a fetch mock so headers, bodies and resets are the real thing.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Step = (req: IncomingMessage, res: ServerResponse, recorded: Recorded) => void;

export interface ScriptedServer {
  origin: string;
  baseUrl: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** Steps run in order; the last one repeats. */
export async function startScripted(steps: Step[]): Promise<ScriptedServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const recorded = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      const step = steps[Math.min(requests.length - 1, steps.length - 1)];
      step?.(req, res, recorded);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Step {
  return (_req, res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
}

export function raw(status: number, text: string, contentType = "text/html"): Step {
  return (_req, res) => {
    res.writeHead(status, { "content-type": contentType });
    res.end(text);
  };
}

/** Destroys the socket without an answer: what a reset looks like to the client. */
export const reset: Step = (req) => {
  req.socket.destroy();
};

/** Never answers; the client's timeout must end the wait. */
export const hang: Step = () => {};
