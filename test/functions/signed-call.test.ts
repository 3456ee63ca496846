/**
 * The functions' two hand-signed AWS calls (functions/support/signed-call.ts): SSM GetParameters
 * for the SST secrets and Lambda's asynchronous Invoke to wake Dispatch. Neither service has a
 * local stand-in, so a loopback server plays the endpoint (through the SDK's own
 * AWS_ENDPOINT_URL_<SERVICE> variables) and checks each request as AWS would: the operation, the
 * body, and the SigV4 signature recomputed from the headers the request says it signed.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Sha256 } from "@aws-crypto/sha256-js";
import { SignatureV4 } from "@smithy/signature-v4";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSecret } from "../../functions/support/secrets.ts";
import { endpointOf } from "../../functions/support/signed-call.ts";
import { lambdaWaker } from "../../functions/support/waker.ts";

const CREDS = { accessKeyId: "AKIDTEST", secretAccessKey: "test-secret", sessionToken: "tok" };

interface Seen {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  signatureValid: boolean;
}

/** Recomputes the request's signature from the headers it lists as signed, as AWS does. */
async function signatureValid(req: IncomingMessage, body: string, service: string) {
  const auth = String(req.headers.authorization ?? "");
  const signedNames = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(";") ?? [];
  const headers = Object.fromEntries(signedNames.map((n) => [n, String(req.headers[n] ?? "")]));
  const date = String(req.headers["x-amz-date"]);
  const when = new Date(
    `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
  );
  const [hostname = "", port] = String(req.headers.host).split(":");
  const signer = new SignatureV4({
    service,
    region: "eu-west-1",
    credentials: CREDS,
    sha256: Sha256,
  });
  const again = await signer.sign(
    {
      method: req.method ?? "",
      protocol: "http:",
      hostname,
      ...(port === undefined ? {} : { port: Number(port) }),
      path: req.url ?? "/",
      query: {},
      headers,
      body,
    },
    { signingDate: when },
  );
  return again.headers.authorization === auth;
}

let server: Server;
const seen: Seen[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };
const saved = { ...process.env };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", async () => {
      const service = req.url?.startsWith("/2015-03-31/") ? "lambda" : "ssm";
      seen.push({
        path: req.url ?? "",
        headers: req.headers,
        body,
        signatureValid: await signatureValid(req, body, service),
      });
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: CREDS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: CREDS.secretAccessKey,
    AWS_SESSION_TOKEN: CREDS.sessionToken,
    AWS_REGION: "eu-west-1",
    AWS_ENDPOINT_URL_SSM: url,
    AWS_ENDPOINT_URL_LAMBDA: url,
  });
});

afterAll(async () => {
  process.env = saved;
  await new Promise((r) => server.close(r));
});

const BOUND = {
  SST_APP: "reelay",
  SST_STAGE: "prod",
  SST_SSM_PREFIX: "/sst/reelay/prod/",
  SST_Secret_value_UPSTREAM_API_KEY: "__FETCH_FROM_SSM__",
};

describe("signed calls without SDK clients", () => {
  it("reads a secret with a correctly signed SSM GetParameters, decrypted, with the session token", async () => {
    seen.length = 0;
    const name = "/sst/reelay/prod/Secret/UPSTREAM_API_KEY/value";
    answer = { status: 200, body: { Parameters: [{ Name: name, Value: "sk-live" }] } };
    expect(await readSecret("UPSTREAM_API_KEY", BOUND)).toBe("sk-live");
    expect(seen).toHaveLength(1);
    const [call] = seen;
    expect(call?.headers["x-amz-target"]).toBe("AmazonSSM.GetParameters");
    expect(call?.headers["x-amz-security-token"]).toBe("tok");
    expect(JSON.parse(call?.body ?? "")).toEqual({ Names: [name], WithDecryption: true });
    expect(call?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-west-1\/ssm\/aws4_request, /,
    );
    expect(call?.signatureValid).toBe(true);
  });

  it("an SSM refusal is service_unavailable naming the error type, never the answer's text", async () => {
    answer = {
      status: 400,
      body: { __type: "AccessDeniedException", message: "User arn:aws:sts::1:assumed-role/x" },
    };
    const read = readSecret("UPSTREAM_API_KEY", BOUND);
    await expect(read).rejects.toMatchObject({ code: "service_unavailable" });
    await expect(read).rejects.toThrow(/AccessDeniedException/);
    await expect(read).rejects.not.toThrow(/arn:aws/);
  });

  it("wakes Dispatch with a correctly signed asynchronous Invoke of that function", async () => {
    seen.length = 0;
    answer = { status: 202, body: {} };
    await lambdaWaker("eu-west-1", "reelay-prod-Dispatch").wake();
    const [call] = seen;
    expect(call?.path).toBe("/2015-03-31/functions/reelay-prod-Dispatch/invocations");
    expect(call?.headers["x-amz-invocation-type"]).toBe("Event");
    expect(JSON.parse(call?.body ?? "")).toEqual({ source: "reelay.wake" });
    expect(call?.headers.authorization).toMatch(/\/eu-west-1\/lambda\/aws4_request, /);
    expect(call?.signatureValid).toBe(true);
  });

  it("a wake Lambda does not queue (not 202) is service_unavailable", async () => {
    answer = { status: 429, body: { Type: "User", message: "Rate exceeded" } };
    await expect(lambdaWaker("eu-west-1", "reelay-prod-Dispatch").wake()).rejects.toMatchObject({
      code: "service_unavailable",
    });
  });

  it("the endpoint is the SDK's: per-service variable, then the global one, then the aws partition", () => {
    expect(endpointOf("ssm", "us-west-2", {}).href).toBe("https://ssm.us-west-2.amazonaws.com/");
    expect(endpointOf("ssm", "us-west-2", { AWS_ENDPOINT_URL: "http://a:1" }).href).toBe(
      "http://a:1/",
    );
    expect(
      endpointOf("lambda", "us-west-2", {
        AWS_ENDPOINT_URL: "http://a:1",
        AWS_ENDPOINT_URL_LAMBDA: "http://b:2",
      }).href,
    ).toBe("http://b:2/");
  });
});
