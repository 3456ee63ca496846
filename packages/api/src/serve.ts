/** The app on a Node HTTP server (the local stack, and tests over real HTTP). */
import type { AddressInfo } from "node:net";
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

export function serveApp(app: Pick<Hono, "fetch">, options: ServeOptions = {}): Promise<RunningServer> {
  const hostname = options.hostname ?? "127.0.0.1";
  return new Promise((resolve, reject) => {
    // Keeping Node's own Request/Response: the AWS SDK and undici share this process.
    const server = serve({ fetch: app.fetch, hostname, port: options.port ?? 0, overrideGlobalObjects: false }, (info: AddressInfo) => {
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
  });
}
