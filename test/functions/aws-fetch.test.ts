/**
 * The Lambda functions' fetch is the strict guard. buildPipelineDeps is built from the same
 * settings the stack puts on a function (no upstream key bound); its fetch then meets a real server
 * on 127.0.0.1 and must never reach it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { awsOutputFetchPolicy, buildPipelineDeps } from "../../functions/support/deps.ts";
import { loadConfig } from "@reelay/core/config";
import { ReelayError } from "@reelay/core/errors";

let server: Server | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await new Promise<void>((resolve) =>
    server === undefined ? resolve() : server.close(() => resolve()),
  );
  server = undefined;
});

async function countingServer(): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { "content-type": "video/mp4" }).end("x");
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, hits: () => hits };
}

describe("the AWS functions' output fetch", () => {
  it("awsOutputFetchPolicy: https only, no loopback, no private, the REELAY_MAX_OUTPUT_BYTES cap", () => {
    expect(awsOutputFetchPolicy(loadConfig({ REELAY_MAX_OUTPUT_BYTES: "5000000" }))).toMatchObject({
      allowHttp: false,
      allowLoopback: false,
      allowPrivate: false,
      maxBytes: 5_000_000,
    });
  });

  it("buildPipelineDeps' fetch refuses loopback, localhost, plain http and the metadata service with url_forbidden", async () => {
    vi.stubEnv("REELAY_TABLE_NAME", "reelay-jobs");
    vi.stubEnv("REELAY_BUCKET_NAME", "reelay-bucket");
    const deps = await buildPipelineDeps({ callsUpstream: false });
    const target = await countingServer();
    for (const url of [
      `http://127.0.0.1:${target.port}/out.mp4`,
      `https://127.0.0.1:${target.port}/out.mp4`,
      `https://localhost:${target.port}/out.mp4`,
      "https://169.254.169.254/latest/meta-data/",
      "https://[::ffff:169.254.169.254]/",
      "https://10.0.0.1/out.mp4",
      "http://example.com/out.mp4",
    ]) {
      const error = await deps.fetch(url).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error, url).toBeInstanceOf(ReelayError);
      expect((error as ReelayError).code, url).toBe("url_forbidden");
    }
    expect(target.hits()).toBe(0);
  });
});
