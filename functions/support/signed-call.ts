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
import { SignatureV4 } from "@smithy/signature-v4";

/** node:crypto behind the Checksum shape the signer asks for (sha256, or HMAC with a secret). */
class Sha256 {
  #hash: Hash | Hmac;
  constructor(private readonly secret?: string | ArrayBuffer | ArrayBufferView) {
    this.#hash = this.#make();
  }
  #make(): Hash | Hmac {
    if (this.secret === undefined) return createHash("sha256");
    const key =
      typeof this.secret === "string"
        ? this.secret
        : ArrayBuffer.isView(this.secret)
          ? Buffer.from(this.secret.buffer, this.secret.byteOffset, this.secret.byteLength)
          : Buffer.from(this.secret);
    return createHmac("sha256", key);
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.#hash.update(
      typeof data === "string"
        ? data
        : ArrayBuffer.isView(data)
          ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
          : Buffer.from(data),
    );
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
}

/** The call's answer: its status and its body as text (JSON for both services used here). */
export interface SignedAnswer {
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

/** POSTs `call` signed with the function's credentials (the default chain: its role's env keys). */
export async function signedPost(call: SignedCall): Promise<SignedAnswer> {
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
  return { status: answer.status, text: await answer.text() };
}

/** An AWS error answer's type (`__type`, `x-amzn-ErrorType`'s JSON twin), never its body whole. */
export function awsErrorType(answer: SignedAnswer): string {
  try {
    const body = JSON.parse(answer.text) as { __type?: unknown; Type?: unknown };
    const type = typeof body.__type === "string" ? body.__type : body.Type;
    return typeof type === "string" ? (type.split("#").pop() ?? type) : `HTTP ${answer.status}`;
  } catch {
    return `HTTP ${answer.status}`;
  }
}
