/**
 * The guard over real HTTP(S) servers on 127.0.0.1. Names such as evil.test reach them through an
 * injected resolver: the resolver is the seam where DNS answers, the connections are real.
 */
import { readFileSync } from "node:fs";
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { createSecureContext } from "node:tls";
import { afterEach, describe, expect, it } from "vitest";
import { ReelayError } from "../../../src/domain/errors.ts";
import { checkTarget, guardedFetch } from "../../../src/adapters/net/guarded-fetch.ts";
import type { FetchPolicy, Resolver } from "../../../src/domain/net/policy.ts";
import { caught } from "../upstream/rejection.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface TestServer {
  port: number;
  /** `host` header and path of every request received. */
  seen: { host: string | undefined; path: string | undefined; method: string | undefined }[];
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers
      .splice(0)
      .map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  );
});

async function listen(server: Server, handler: Handler): Promise<TestServer> {
  const seen: TestServer["seen"] = [];
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    seen.push({ host: req.headers.host, path: req.url, method: req.method });
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return { port: (server.address() as AddressInfo).port, seen };
}

function serve(handler: Handler): Promise<TestServer> {
  return listen(createHttpServer(), handler);
}

function video(bytes = 1000, type = "video/mp4"): Handler {
  return (_req, res) => {
    res.writeHead(200, { "content-type": type, "content-length": bytes });
    res.end(Buffer.alloc(bytes, 7));
  };
}

const LOCAL: FetchPolicy = {
  allowHttp: true,
  allowLoopback: true,
  allowPrivate: false,
  maxBytes: 1_000_000,
  maxRedirects: 5,
};
const NO_LOOPBACK: FetchPolicy = { ...LOCAL, allowLoopback: false };
const OUTPUTS: FetchPolicy = {
  ...LOCAL,
  allowedContentTypes: ["video/*", "image/*", "application/octet-stream"],
};

/** A DNS stand-in: the names given resolve to the addresses given; it counts its calls. */
function resolver(names: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const addresses = names[hostname];
    if (addresses === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({
      address,
      family: address.includes(":") ? (6 as const) : (4 as const),
    }));
  };
  return Object.assign(resolve, { calls });
}

/** Whatever a promise rejects with (network errors are not ReelayErrors). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error as Error,
  );
}

async function refusal(promise: Promise<unknown>): Promise<ReelayError> {
  const error = await caught(promise);
  expect(error).toBeInstanceOf(ReelayError);
  return error;
}

describe("guardedFetch: loopback", () => {
  it("refuses http://127.0.0.1 when loopback is not allowed, without connecting", async () => {
    const server = await serve(video());
    const error = await refusal(
      guardedFetch(NO_LOOPBACK)(`http://127.0.0.1:${server.port}/out.mp4?sig=secret`),
    );
    expect(error.code).toBe("url_forbidden");
    expect(error.retryable).toBe(false);
    expect(error.details).toMatchObject({ address: "127.0.0.1", kind: "loopback" });
    expect(error.message).not.toContain("secret");
    expect(server.seen).toHaveLength(0);
  });

  it("fetches http://127.0.0.1 when loopback is allowed (local mode)", async () => {
    const server = await serve(video(1234));
    const response = await guardedFetch(LOCAL)(`http://127.0.0.1:${server.port}/out.mp4`);
    expect(response.status).toBe(200);
    expect((await response.arrayBuffer()).byteLength).toBe(1234);
    expect(server.seen).toEqual([
      { host: `127.0.0.1:${server.port}`, path: "/out.mp4", method: "GET" },
    ]);
  });

  it("refuses `localhost` (resolved by the system) when loopback is not allowed", async () => {
    const server = await serve(video());
    const error = await refusal(guardedFetch(NO_LOOPBACK)(`http://localhost:${server.port}/`));
    expect(error.code).toBe("url_forbidden");
    expect(error.details?.kind).toBe("loopback");
    expect(server.seen).toHaveLength(0);
  });

  it("refuses a name that resolves to 127.0.0.1", async () => {
    const server = await serve(video());
    const dns = resolver({ "evil.test": ["127.0.0.1"] });
    const error = await refusal(guardedFetch(NO_LOOPBACK, dns)(`http://evil.test:${server.port}/`));
    expect(error.code).toBe("url_forbidden");
    expect(error.message).toContain("evil.test resolves to 127.0.0.1");
    expect(server.seen).toHaveLength(0);
  });

  it("refuses a name when ANY of its addresses is forbidden, even if another is public", async () => {
    const dns = resolver({ "mixed.test": ["93.184.216.34", "10.0.0.1"] });
    const error = await refusal(guardedFetch(NO_LOOPBACK, dns)("http://mixed.test/"));
    expect(error.details).toMatchObject({ address: "10.0.0.1", kind: "private" });
  });
});

describe("guardedFetch: the connection goes to the checked address", () => {
  it("resolves once and connects to that answer: a name the system cannot resolve reaches the pinned server, with its own Host header", async () => {
    const server = await serve(video(10));
    // A rebinding DNS: the first answer passes the check, any later one points at the metadata service.
    let answers = 0;
    const rebinding: Resolver = async () => [
      { address: answers++ === 0 ? "127.0.0.1" : "169.254.169.254", family: 4 },
    ];
    const response = await guardedFetch(
      LOCAL,
      rebinding,
    )(`http://rebind.test:${server.port}/a.mp4`);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(answers).toBe(1);
    expect(server.seen).toEqual([
      { host: `rebind.test:${server.port}`, path: "/a.mp4", method: "GET" },
    ]);
  });

  it("https: sends the host name as SNI and verifies the certificate (a self-signed one is refused)", async () => {
    const pem = readFileSync(new URL("./self-signed-evil-test.pem", import.meta.url), "utf8");
    const context = createSecureContext({ key: pem, cert: pem });
    const sni: string[] = [];
    const tlsServer = createHttpsServer({
      key: pem,
      cert: pem,
      SNICallback: (servername, done) => {
        sni.push(servername);
        done(null, context);
      },
    });
    const sniSeen = new Promise<void>((resolve) => tlsServer.on("tlsClientError", () => resolve()));
    const server = await listen(tlsServer, video());
    const dns = resolver({ "evil.test": ["127.0.0.1"] });
    const policy: FetchPolicy = { ...LOCAL, allowHttp: false };
    const error = await rejection(guardedFetch(policy, dns)(`https://evil.test:${server.port}/`));
    // Not a guard refusal: the TLS handshake itself failed on the untrusted certificate.
    expect(error).not.toBeInstanceOf(ReelayError);
    expect(String((error as Error & { code?: string }).code ?? error.message)).toMatch(
      /SELF_SIGNED|self.signed/i,
    );
    await sniSeen;
    expect(sni).toEqual(["evil.test"]);
    expect(server.seen).toHaveLength(0);
    expect(dns.calls).toEqual(["evil.test"]);
  });
});

describe("guardedFetch: literal addresses in every spelling", () => {
  it.each([
    ["http://169.254.169.254/latest/meta-data/", "metadata"],
    ["http://[::ffff:169.254.169.254]/", "metadata"],
    ["http://[::ffff:a9fe:a9fe]/", "metadata"],
    ["http://2852039166/", "metadata"],
    ["http://0xA9FEA9FE/", "metadata"],
    ["http://0251.0376.0251.0376/", "metadata"],
    ["http://169.254.43518/", "metadata"],
    ["http://[fd00:ec2::254]/", "metadata"],
    ["http://10.0.0.1/", "private"],
    ["http://172.16.0.1/", "private"],
    ["http://192.168.1.1/", "private"],
    ["http://0.0.0.0/", "unspecified"],
    ["http://0/", "unspecified"],
    ["http://[::]/", "unspecified"],
    ["http://[fe80::1]/", "link-local"],
    ["http://[::1]/", "loopback"],
    ["http://127.1/", "loopback"],
  ])("refuses %s (%s)", async (url, kind) => {
    const error = await refusal(guardedFetch(NO_LOOPBACK)(url));
    expect(error.code).toBe("url_forbidden");
    expect(error.details?.kind).toBe(kind);
  });

  it("the WHATWG URL parser is what turns http://2852039166/ into 169.254.169.254", () => {
    expect(new URL("http://2852039166/").hostname).toBe("169.254.169.254");
    expect(new URL("http://0xA9FEA9FE/").hostname).toBe("169.254.169.254");
    expect(new URL("http://[::ffff:169.254.169.254]/").hostname).toBe("[::ffff:a9fe:a9fe]");
  });

  it("metadata and link-local stay refused even with loopback and private allowed", async () => {
    const lax: FetchPolicy = { ...LOCAL, allowPrivate: true };
    expect((await refusal(guardedFetch(lax)("http://169.254.169.254/"))).code).toBe(
      "url_forbidden",
    );
    expect((await refusal(guardedFetch(lax)("http://[fe80::1]/"))).code).toBe("url_forbidden");
    const target = await checkTarget(new URL("http://10.0.0.1/"), lax);
    expect(target.address).toBe("10.0.0.1");
  });
});

describe("guardedFetch: schemes", () => {
  it("refuses http:// when https only, even to an allowed address", async () => {
    const server = await serve(video());
    const error = await refusal(
      guardedFetch({ ...LOCAL, allowHttp: false })(`http://127.0.0.1:${server.port}/`),
    );
    expect(error.code).toBe("url_forbidden");
    expect(error.message).toContain("only https");
    expect(server.seen).toHaveLength(0);
  });

  it.each(["file:///etc/passwd", "ftp://example.com/a", "gopher://example.com/"])(
    "refuses %s",
    async (url) => {
      expect((await refusal(guardedFetch(LOCAL)(url))).code).toBe("url_forbidden");
    },
  );
});

describe("guardedFetch: redirects", () => {
  function redirectTo(location: string): Handler {
    return (_req, res) => {
      res.writeHead(302, { location });
      res.end();
    };
  }

  it("refuses a redirect from an allowed place to 169.254.169.254", async () => {
    const server = await serve(redirectTo("http://169.254.169.254/latest/meta-data/iam/"));
    const error = await refusal(guardedFetch(LOCAL)(`http://127.0.0.1:${server.port}/out.mp4`));
    expect(error.code).toBe("url_forbidden");
    expect(error.details).toMatchObject({ address: "169.254.169.254", kind: "metadata" });
    expect(server.seen).toHaveLength(1);
  });

  it("refuses a redirect to [::ffff:169.254.169.254] and to a name that resolves to 10.0.0.1", async () => {
    const mapped = await serve(redirectTo("http://[::ffff:169.254.169.254]/"));
    expect(
      (await refusal(guardedFetch(LOCAL)(`http://127.0.0.1:${mapped.port}/`))).details?.kind,
    ).toBe("metadata");
    const named = await serve(redirectTo("http://inside.test/"));
    const dns = resolver({ "inside.test": ["10.0.0.1"] });
    expect(
      (await refusal(guardedFetch(LOCAL, dns)(`http://127.0.0.1:${named.port}/`))).details?.kind,
    ).toBe("private");
  });

  it("checks the scheme of every hop: a redirect to file:// is refused", async () => {
    const server = await serve(redirectTo("file:///etc/passwd"));
    const error = await refusal(guardedFetch(LOCAL)(`http://127.0.0.1:${server.port}/`));
    expect(error.code).toBe("url_forbidden");
    expect(error.message).toContain("not file");
  });

  it("follows redirects within what is allowed, each hop checked, and stops after maxRedirects", async () => {
    const server = await serve((req, res) => {
      const n = Number(req.url?.slice(1) || "0");
      if (n < 3) {
        res.writeHead(302, { location: `/${n + 1}` });
        res.end();
        return;
      }
      video(5)(req, res);
    });
    const dns = resolver({ "cdn.test": ["127.0.0.1"] });
    const response = await guardedFetch(LOCAL, dns)(`http://cdn.test:${server.port}/0`);
    expect(response.status).toBe(200);
    expect((await response.arrayBuffer()).byteLength).toBe(5);
    expect(server.seen.map((s) => s.path)).toEqual(["/0", "/1", "/2", "/3"]);
    expect(dns.calls).toEqual(["cdn.test", "cdn.test", "cdn.test", "cdn.test"]);

    const error = await refusal(
      guardedFetch({ ...LOCAL, maxRedirects: 2 }, dns)(`http://cdn.test:${server.port}/0`),
    );
    expect(error.code).toBe("too_many_redirects");
  });

  it("does not follow a redirect for POST, nor with redirect: manual", async () => {
    const server = await serve(redirectTo("http://169.254.169.254/"));
    const posted = await guardedFetch(LOCAL)(`http://127.0.0.1:${server.port}/hook`, {
      method: "POST",
      body: "{}",
    });
    expect(posted.status).toBe(302);
    const manual = await guardedFetch(LOCAL)(`http://127.0.0.1:${server.port}/`, {
      redirect: "manual",
    });
    expect(manual.status).toBe(302);
    expect(server.seen.map((s) => s.method)).toEqual(["POST", "GET"]);
  });
});

describe("guardedFetch: size cap and content type", () => {
  it("refuses a Content-Length above the cap before reading the body", async () => {
    const server = await serve(video(2000));
    const error = await refusal(
      guardedFetch({ ...LOCAL, maxBytes: 1000 })(`http://127.0.0.1:${server.port}/`),
    );
    expect(error.code).toBe("output_too_large");
    expect(error.retryable).toBe(false);
  });

  it("cuts a body without Content-Length once it passes the cap", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "video/mp4" });
      for (let i = 0; i < 10; i++) res.write(Buffer.alloc(500, 1));
      res.end();
    });
    const response = await guardedFetch({ ...LOCAL, maxBytes: 1000 })(
      `http://127.0.0.1:${server.port}/`,
    );
    expect(response.headers.get("content-length")).toBeNull();
    const error = await refusal(response.arrayBuffer());
    expect(error.code).toBe("output_too_large");
  });

  it("a body of exactly the cap passes", async () => {
    const server = await serve(video(1000));
    const response = await guardedFetch({ ...LOCAL, maxBytes: 1000 })(
      `http://127.0.0.1:${server.port}/`,
    );
    expect((await response.arrayBuffer()).byteLength).toBe(1000);
  });

  it("refuses text/html and application/json where a video or image is expected", async () => {
    for (const type of ["text/html; charset=utf-8", "application/json"]) {
      const server = await serve(video(10, type));
      const error = await refusal(guardedFetch(OUTPUTS)(`http://127.0.0.1:${server.port}/`));
      expect(error.code).toBe("output_content_type");
      expect(error.details?.contentType).toBe(type.split(";")[0]);
    }
  });

  it("accepts video/mp4, image/png, application/octet-stream and a missing type", async () => {
    for (const type of ["video/mp4", "image/png", "application/octet-stream"]) {
      const server = await serve(video(10, type));
      expect((await guardedFetch(OUTPUTS)(`http://127.0.0.1:${server.port}/`)).status).toBe(200);
    }
    const untyped = await serve((_req, res) => {
      res.removeHeader("content-type");
      res.end("x");
    });
    expect(await (await guardedFetch(OUTPUTS)(`http://127.0.0.1:${untyped.port}/`)).text()).toBe(
      "x",
    );
  });

  it("judges the type of successful answers only: an error page keeps its status", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<h1>gone</h1>");
    });
    const response = await guardedFetch(OUTPUTS)(`http://127.0.0.1:${server.port}/`);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("<h1>gone</h1>");
  });
});

describe("guardedFetch: a connection closed early", () => {
  it("errors the body when fewer bytes than Content-Length arrive", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "video/mp4", "content-length": 1000 });
      res.write(Buffer.alloc(400), () => res.destroy());
    });
    const response = await guardedFetch(LOCAL)(`http://127.0.0.1:${server.port}/`);
    const error = await rejection(response.arrayBuffer());
    expect(error).not.toBeInstanceOf(ReelayError);
    expect(error.message).toMatch(/terminated/);
  });
});
