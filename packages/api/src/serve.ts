/** The app on a Node HTTP server (the local stack, and tests over real HTTP). */
import { STATUS_CODES } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { createAdaptorServer } from "@hono/node-server";
import type { Hono } from "hono";

/** Longer than any client's idle keep-alive, so the client is always the one that closes. */
const IDLE_KEEP_ALIVE_MS = 65_000;
/** Connections waiting to be accepted; the kernel caps it at net.core.somaxconn (4096 here). */
const ACCEPT_BACKLOG = 4096;

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
    const server = createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false });
    // Idle keep-alive connections are closed by the client first (undici's fetch after 4 s): a
    // server closing one at its own 5 s default can meet a request just sent on it.
    if ("keepAliveTimeout" in server) {
      server.keepAliveTimeout = IDLE_KEEP_ALIVE_MS;
      server.headersTimeout = IDLE_KEEP_ALIVE_MS + 1_000;
    }
    // A burst of new connections (a thousand parallel creates) waits in the accept queue while the
    // loop is busy; past Node's default 511 the kernel resets the overflow (ECONNRESET, unanswered).
    server.listen({ port: options.port ?? 0, host: hostname, backlog: ACCEPT_BACKLOG }, () => {
      const info = server.address() as AddressInfo;
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
    });
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
