/**
 * What buildPipelineDeps gives a Lambda function (built from the settings the stack puts on one, no
 * upstream key bound) meets a real server on 127.0.0.1:
 *   - its fetch is the strict guard and must never reach it;
 *   - its S3 client signs uploads with UNSIGNED-PAYLOAD (core's adapters/s3/unsigned-uploads.ts): the SDK
 *     would otherwise hash every part of a copy for the signature, a second sha256 pass over every
 *     copied byte. The CRC32 S3 checks still goes with each upload. The server plays S3
 *     (AWS_ENDPOINT_URL_S3) and keeps each request's headers.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { awsOutputFetchPolicy, buildPipelineDeps } from "../../functions/support/deps.ts";
import { loadConfig } from "@reelay/core/wiring";
import { ReelayError } from "@reelay/core/domain";

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

async function* once(chunk: Uint8Array): AsyncGenerator<Uint8Array> {
  yield chunk;
}

it("an upload from the functions is signed with UNSIGNED-PAYLOAD and carries its CRC32", async () => {
  const seen: { method?: string; url?: string; headers: IncomingHttpHeaders; bytes: number }[] = [];
  server = createServer((req, res) => {
    let bytes = 0;
    req.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
    });
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, bytes });
      res.writeHead(200, { etag: '"e"' }).end();
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  vi.stubEnv("REELAY_TABLE_NAME", "reelay-jobs");
  vi.stubEnv("REELAY_BUCKET_NAME", "reelay-bucket");
  vi.stubEnv("AWS_REGION", "eu-west-1");
  vi.stubEnv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE");
  vi.stubEnv("AWS_SECRET_ACCESS_KEY", "secret");
  vi.stubEnv("AWS_ENDPOINT_URL_S3", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const deps = await buildPipelineDeps({ callsUpstream: false });
  const body = Buffer.alloc(100_000, 7);
  await deps.objects.uploadStream("outputs/j/video.mp4", once(body), {
    contentType: "video/mp4",
    expectedBytes: body.length,
  });
  expect(seen).toHaveLength(1);
  const [put] = seen;
  expect(put?.method).toBe("PUT");
  expect(put?.bytes).toBe(body.length);
  expect(put?.headers["x-amz-content-sha256"]).toBe("UNSIGNED-PAYLOAD");
  expect(put?.headers.authorization).toMatch(/SignedHeaders=[^,]*x-amz-content-sha256/);
  expect(put?.headers["x-amz-checksum-crc32"]).toMatch(/^[A-Za-z0-9+/]+=*$/);
});
