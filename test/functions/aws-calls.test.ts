/**
 * The functions' two AWS calls outside the pipeline's clients, made with the SDK: SSM
 * GetParameters through Powertools Parameters for the SST secrets, and Lambda's asynchronous Invoke
 * to wake Dispatch. Neither service has a local stand-in, so a loopback server plays the endpoint
 * (through the SDK's own AWS_ENDPOINT_URL_<SERVICE> variables) and records each request: the
 * operation, the body, and the credentials it was signed with (the SDK signs; nothing here does).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { LambdaClient } from "@aws-sdk/client-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSecret } from "../../functions/support/secrets.ts";
import { lambdaWaker } from "../../functions/support/waker.ts";

const CREDS = { accessKeyId: "AKIDTEST", secretAccessKey: "test-secret", sessionToken: "tok" };

interface Seen {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

let server: Server;
const seen: Seen[] = [];
interface Answer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}
/** The next answer, or how to answer a request's body. */
let answer: Answer | ((body: string) => Answer) = { status: 200, body: {} };

/** SSM's GetParameters over `values`: the names it has, and the others as invalid. */
function parameterStore(values: Record<string, string>): (body: string) => Answer {
  return (body) => {
    const names = (JSON.parse(body) as { Names: string[] }).Names;
    return {
      status: 200,
      body: {
        Parameters: names.flatMap((Name) =>
          Name in values ? [{ Name, Value: values[Name] }] : [],
        ),
        InvalidParameters: names.filter((name) => !(name in values)),
      },
    };
  };
}
const saved = { ...process.env };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      seen.push({ path: req.url ?? "", headers: req.headers, body });
      const { status, headers, body: reply } = typeof answer === "function" ? answer(body) : answer;
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(reply));
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
  AWS_REGION: "eu-west-1",
};

describe("AWS calls through the SDK", () => {
  it("reads a secret with SSM GetParameters, decrypted, signed for ssm in the function's region with its session token", async () => {
    seen.length = 0;
    const name = "/sst/reelay/prod/Secret/UPSTREAM_API_KEY/value";
    answer = parameterStore({ [name]: "sk-live" });
    expect(await readSecret("UPSTREAM_API_KEY", BOUND)).toBe("sk-live");
    expect(seen).toHaveLength(1);
    const [call] = seen;
    expect(call?.headers["x-amz-target"]).toBe("AmazonSSM.GetParameters");
    expect(call?.headers["x-amz-security-token"]).toBe("tok");
    expect(JSON.parse(call?.body ?? "")).toEqual({ Names: [name], WithDecryption: true });
    expect(call?.headers.authorization).toMatch(
      /Credential=AKIDTEST\/\d{8}\/eu-west-1\/ssm\/aws4_request, /,
    );
  });

  it("a parameter SSM does not have falls back to the app-wide one", async () => {
    seen.length = 0;
    const fallback = "/sst/reelay/.fallback/Secret/UPSTREAM_API_KEY/value";
    answer = parameterStore({ [fallback]: "sk-fallback" });
    expect(await readSecret("UPSTREAM_API_KEY", BOUND)).toBe("sk-fallback");
    expect(seen.map((call) => JSON.parse(call.body).Names)).toEqual([
      ["/sst/reelay/prod/Secret/UPSTREAM_API_KEY/value"],
      [fallback],
    ]);
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

  it("wakes Dispatch with an asynchronous Invoke of that function", async () => {
    seen.length = 0;
    answer = { status: 202, body: {} };
    await lambdaWaker(new LambdaClient({ region: "eu-west-1" }), "reelay-prod-Dispatch").wake();
    const [call] = seen;
    expect(call?.path).toBe("/2015-03-31/functions/reelay-prod-Dispatch/invocations");
    expect(call?.headers["x-amz-invocation-type"]).toBe("Event");
    expect(JSON.parse(call?.body ?? "")).toEqual({ source: "reelay.wake" });
    expect(call?.headers.authorization).toMatch(/\/eu-west-1\/lambda\/aws4_request, /);
  });

  it("a wake Lambda refuses is service_unavailable naming the error type, never the answer's text", async () => {
    answer = {
      status: 403,
      headers: { "x-amzn-errortype": "AccessDeniedException" },
      body: { Type: "User", message: "User arn:aws:sts::1:assumed-role/x is not authorized" },
    };
    const wake = lambdaWaker(
      new LambdaClient({ region: "eu-west-1" }),
      "reelay-prod-Dispatch",
    ).wake();
    await expect(wake).rejects.toMatchObject({ code: "service_unavailable" });
    await expect(wake).rejects.toThrow(/AccessDeniedException/);
    await expect(wake).rejects.not.toThrow(/arn:aws/);
  });
});
