/** A real HTTP receiver on 127.0.0.1 that answers from a script and records every request. */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/**
 * `statusFor(n, webhookId)` is the status of the n-th request (1-based) and `answerFor(n)` its
 * body; `webhookId` lets a receiver count per event.
 */
export async function startReceiver(
  statusFor: (n: number, webhookId: string) => number,
  answerFor: (n: number) => string = () => "",
): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const n = received.length + 1;
      const status = statusFor(n, String(req.headers["webhook-id"]));
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), status });
      res.writeHead(status).end(answerFor(n));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
