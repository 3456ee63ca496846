/** The app on a Node HTTP server (the local stack, and tests over real HTTP). */
import { STATUS_CODES } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";

export interface ServeOptions {
  hostname?: string;
  /** 0 picks a free port. */
  port?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export function serveApp(
  app: Pick<Hono, "fetch">,
  options: ServeOptions = {},
): Promise<RunningServer> {
  const hostname = options.hostname ?? "127.0.0.1";
  return new Promise((resolve, reject) => {
    // Keeping Node's own Request/Response: the AWS SDK and undici share this process.
    const server = serve(
      { fetch: app.fetch, hostname, port: options.port ?? 0, overrideGlobalObjects: false },
      (info: AddressInfo) => {
        resolve({
          url: `http://${hostname}:${info.port}`,
          port: info.port,
          close: () =>
            new Promise<void>((done, fail) => {
              // Open event streams would hold close() forever.
              if ("closeAllConnections" in server) server.closeAllConnections();
              server.close((error) => (error ? fail(error) : done()));
            }),
        });
      },
    );
    server.once("error", reject);
    server.on("clientError", answerClientError);
  });
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    "request_header_fields_too_large",
    "The request line and headers are larger than 16 KiB.",
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "request_timeout", "The request was not received in time."],
};

/**
 * Node's HTTP parser answers a request it cannot parse itself (bare-text 400, 431 for a head over
 * 16 KiB), before the app sees it; this gives those answers the API's `{error: {code, message}}` too.
 */
function answerClientError(
  error: NodeJS.ErrnoException,
  socket: Duplex & { _httpMessage?: { _headerSent?: boolean } | null },
): void {
  // As Node's own handler: never write into an answer that has already started on this connection.
  if (
    !socket.writable ||
    error.code === "ECONNRESET" ||
    socket._httpMessage?._headerSent === true
  ) {
    socket.destroy();
    return;
  }
  const [status, code, message] = CLIENT_ERRORS[error.code ?? ""] ?? [
    400,
    "bad_request",
    "The request is not valid HTTP/1.1 (malformed request line, header or body framing).",
  ];
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
