/**
 * One signed AWS call without a service client: the two calls the functions make to SSM
 * (GetParameters, for the SST secrets) and Lambda (an asynchronous Invoke, to wake Dispatch) are
 * signed here with SigV4 and sent with fetch. Their SDK clients were 86 KB and 77 KB of every
 * bundle (each client carries every command's schema), which kept the api function over 1 MB; the
 * signer and the credential chain are already in every bundle through the other clients.
 *
 * The endpoint is the SDK's: `AWS_ENDPOINT_URL_<SERVICE>`, then `AWS_ENDPOINT_URL`, then
 * `https://<service>.<region>.amazonaws.com` (the aws partition; another partition sets the env).
 */
import { createHash, createHmac, type Hash, type Hmac } from "node:crypto";
import { defaultProvider } from "@aws-sdk/credential-provider-node";
import { ReelayError } from "@reelay/core/domain";
import { SignatureV4 } from "@smithy/signature-v4";

/** Bytes node:crypto takes: strings and views as they are, an ArrayBuffer viewed. */
const bytesOf = (data: string | ArrayBuffer | ArrayBufferView): string | Uint8Array =>
  typeof data === "string"
    ? data
    : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data);

/** node:crypto behind the Checksum shape the signer asks for (sha256, or HMAC with a secret). */
class Sha256 {
  #hash: Hash | Hmac;
  constructor(private readonly secret?: string | ArrayBuffer | ArrayBufferView) {
    this.#hash = this.#make();
  }
  #make(): Hash | Hmac {
    return this.secret === undefined
      ? createHash("sha256")
      : createHmac("sha256", bytesOf(this.secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.#hash.update(bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.#hash.digest());
  }
  reset(): void {
    this.#hash = this.#make();
  }
}

export interface SignedCall {
  /** The signing name and endpoint prefix: "ssm", "lambda". */
  service: string;
  region: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The status a success answers (200, or 202 for an asynchronous Invoke). */
  expect: number;
  /** What the call does, for the error: "read <names>", "queue the wake of <function>". */
  what: string;
  /** What it is about, the error's path: the parameter names, the function's name. */
  subject: string;
}

/** The call's answer: its status and its body as text (JSON for both services used here). */
interface SignedAnswer {
  status: number;
  text: string;
}

const credentials = defaultProvider();

export function endpointOf(
  service: string,
  region: string,
  env: NodeJS.ProcessEnv = process.env,
): URL {
  const own = env[`AWS_ENDPOINT_URL_${service.toUpperCase()}`] ?? env.AWS_ENDPOINT_URL;
  return new URL(own ?? `https://${service}.${region}.amazonaws.com`);
}

/**
 * POSTs `call` signed with the function's credentials (the default chain: its role's env keys) and
 * returns the answer's body; any other status than `call.expect` is service_unavailable naming the
 * AWS error type, never the answer's text.
 */
export async function signedPost(call: SignedCall): Promise<string> {
  const endpoint = endpointOf(call.service, call.region);
  const signer = new SignatureV4({
    service: call.service,
    region: call.region,
    credentials,
    sha256: Sha256,
  });
  const base = endpoint.pathname.replace(/\/$/, "");
  const signed = await signer.sign({
    method: "POST",
    protocol: endpoint.protocol,
    hostname: endpoint.hostname,
    ...(endpoint.port === "" ? {} : { port: Number(endpoint.port) }),
    path: `${base}${call.path}`,
    query: {},
    headers: { ...call.headers, host: endpoint.host },
    body: call.body,
  });
  const { host: _host, ...headers } = signed.headers;
  const answer = await fetch(new URL(`${base}${call.path}`, endpoint), {
    method: "POST",
    headers,
    body: call.body,
  });
  const done = { status: answer.status, text: await answer.text() };
  if (done.status !== call.expect) {
    throw new ReelayError(
      "service_unavailable",
      `${call.service} refused to ${call.what}: ${awsErrorType(done)}.`,
      { path: call.subject },
    );
  }
  return done.text;
}

/** An AWS error answer's type (`__type`, `x-amzn-ErrorType`'s JSON twin), never its body whole. */
function awsErrorType(answer: SignedAnswer): string {
  try {
    const body = JSON.parse(answer.text) as { __type?: unknown; Type?: unknown };
    const type = typeof body.__type === "string" ? body.__type : body.Type;
    return typeof type === "string" ? (type.split("#").pop() ?? type) : `HTTP ${answer.status}`;
  } catch {
    return `HTTP ${answer.status}`;
  }
}
