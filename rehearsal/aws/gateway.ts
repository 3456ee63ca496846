/**
 * The one AWS endpoint the rehearsed functions reach (through the SDK's own AWS_ENDPOINT_URL): every
 * request is named (parse.ts), checked against its signer's role by the IAM gate before anything
 * answers, and then forwarded to its stand-in: dynalite for DynamoDB, s3rver for S3 (signed again
 * with s3rver's own key, by the SDK's signer), the rehearsal's own stand-ins for the rest. A call
 * the gate denies is answered as AWS answers it and recorded; so is one nothing could name.
 */
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { crc32 } from "node:zlib";
import { Sha256 } from "@aws-crypto/sha256-js";
import { SignatureV4 } from "@smithy/signature-v4";
import type { IamGate } from "../iam/gate.ts";
import type { AwsCall, AwsService } from "./call.ts";
import { accessDenied, type AwsErrorAnswer, awsError } from "./errors.ts";
import { needsBody, parseAwsRequest, type RawRequest, readSigV4 } from "./parse.ts";
import { verifySignature } from "./signature.ts";

/** What a stand-in answers: a JSON body (the JSON protocols), or raw bytes and a status (Lambda). */
export interface StandinAnswer {
  status?: number;
  headers?: Record<string, string>;
  body: string | Buffer;
}

export type Standin = (call: AwsCall, body: Buffer) => Promise<StandinAnswer>;

/** An error a stand-in throws to answer as the service would (a missing parameter, an unknown function). */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface ObjectCreated {
  bucket: string;
  key: string;
  size: number;
  eventName: "Put" | "Post" | "Copy" | "CompleteMultipartUpload";
  /** The tags the write set (`x-amz-tagging`, URL-encoded), which s3rver does not keep itself. */
  tagging?: string;
}

export interface GatewayOptions {
  gate: IamGate;
  /** The secret of each access key the functions sign with: every request's signature is checked. */
  secretFor: (accessKeyId: string) => string | undefined;
  region: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  standins: Partial<Record<Exclude<AwsService, "dynamodb" | "s3">, Standin>>;
  /** After S3 stored an object (the bucket's notifications fire from here). */
  onObjectCreated?: (created: ObjectCreated) => void;
}

/** A call that was not answered as asked: denied by IAM, or not understood by the gateway. */
interface Refusal {
  kind: "denied" | "unparsed" | "unsigned" | "standin-failed";
  accessKeyId?: string;
  call?: AwsCall;
  message: string;
}

/**
 * The DynamoDB capacity one call consumed, as DynamoDB reports it when a request asks for
 * ReturnConsumedCapacity (docs/performance.md, the AWS bill): request units on an on-demand table.
 */
interface ConsumedCapacity {
  /** The call as the gate judged it (who signed it, its operation and its request). */
  call: AwsCall;
  read: boolean;
  units: number;
  /**
   * The call failed. A write whose condition was not met is still billed, by the existing item's
   * size and at least 1 unit; dynalite reports nothing then, so 1 is recorded (a floor).
   */
  failed: boolean;
}

export interface Gateway {
  url: string;
  refusals(): Refusal[];
  /** Every DynamoDB call's consumed capacity, in the order they were answered. */
  consumed(): ConsumedCapacity[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

/** The service a request was signed for, when it was signed at all. */
function signerService(raw: Omit<RawRequest, "body">): string | undefined {
  try {
    return readSigV4(raw)?.service;
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, answer: AwsErrorAnswer | StandinAnswer): void {
  res.writeHead(answer.status ?? 200, answer.headers ?? {});
  res.end(answer.body);
}

const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
/** A presigned URL's own signing parameters: dropped before the forward is signed in headers. */
const PRESIGN_PARAMS =
  /^x-amz-(algorithm|credential|date|expires|signedheaders|signature|security-token)$/i;

/** The request as s3rver must see it: the same, signed with s3rver's key instead of the role's. */
async function signedForS3rver(
  req: IncomingMessage,
  target: URL,
  region: string,
): Promise<{ path: string; headers: Record<string, string> }> {
  const url = new URL(req.url ?? "/", "http://gateway");
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) if (!PRESIGN_PARAMS.test(name)) query[name] = value;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (
      value !== undefined &&
      !/^(authorization|x-amz-security-token|x-amz-date|host)$/i.test(name)
    )
      headers[name] = Array.isArray(value) ? value.join(",") : value;
  headers.host = target.host;
  headers["x-amz-content-sha256"] ??= "UNSIGNED-PAYLOAD";
  const signer = new SignatureV4({
    credentials: S3RVER_CREDENTIALS,
    region,
    service: "s3",
    sha256: Sha256,
    uriEscapePath: false,
  });
  const signed = await signer.sign({
    method: req.method ?? "GET",
    protocol: target.protocol,
    hostname: target.hostname,
    port: Number(target.port),
    path: url.pathname,
    query,
    headers,
  });
  const search = new URLSearchParams(query).toString();
  return {
    path: `${url.pathname}${search === "" ? "" : `?${search}`}`,
    headers: signed.headers as Record<string, string>,
  };
}

/** Sends the request on to a stand-in server and its answer back; body given, or streamed from req. */
function forward(
  req: IncomingMessage,
  res: ServerResponse,
  target: { url: URL; path: string; headers: Record<string, string | string[] | undefined> },
  body: Buffer | undefined,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const out = request(
      {
        host: target.url.hostname,
        port: target.url.port,
        method: req.method,
        path: target.path,
        headers: target.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.once("end", () => resolve(answer.statusCode ?? 502));
        answer.once("error", reject);
        // A reader that stops early (ffmpeg has what it needs from a video's head) hangs up: the
        // stand-in's answer is dropped with it, or its connection would stay open, paused.
        res.once("close", () => {
          if (answer.readableEnded) return;
          answer.destroy();
          resolve(answer.statusCode ?? 502);
        });
      },
    );
    out.once("error", reject);
    if (body === undefined) req.pipe(out);
    else out.end(body);
  });
}

/** Sends a request with this body to a stand-in server and reads its whole answer. */
function exchange(
  req: IncomingMessage,
  url: URL,
  body: Buffer,
): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, "content-length": String(body.length) };
    delete headers["transfer-encoding"];
    const out = request(
      { host: url.hostname, port: url.port, method: req.method, path: req.url ?? "/", headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.once("end", () => {
          const kept: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(answer.headers))
            if (value !== undefined && !/^(content-length|x-amz-crc32)$/i.test(name))
              kept[name] = value;
          resolve({ status: answer.statusCode ?? 502, headers: kept, body: Buffer.concat(chunks) });
        });
        answer.once("error", reject);
      },
    );
    out.once("error", reject);
    out.end(body);
  });
}

const READS = new Set(["GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems"]);

/** The units a DynamoDB answer reports (a batch's summed over its tables); a failed write 1. */
function capacityOf(
  call: AwsCall,
  status: number,
  answer: Record<string, unknown> | undefined,
): ConsumedCapacity {
  const reported = answer?.ConsumedCapacity;
  const list = (Array.isArray(reported) ? reported : [reported]) as (
    | { CapacityUnits?: number }
    | undefined
  )[];
  const units = list.reduce((sum, c) => sum + (c?.CapacityUnits ?? 0), 0);
  const read = READS.has(call.operation);
  const failed = status >= 300;
  return {
    call,
    read,
    units: failed && !read ? Math.max(1, units) : units,
    failed,
  };
}

const CREATED: Record<string, ObjectCreated["eventName"]> = {
  PutObject: "Put",
  CopyObject: "Copy",
  CompleteMultipartUpload: "CompleteMultipartUpload",
};

/** A request the gateway took in: what it is, who signed it, its body when it was read. */
interface Admitted {
  call: AwsCall;
  body: Buffer | undefined;
}

class GatewayServer {
  readonly refusals: Refusal[] = [];
  readonly consumed: ConsumedCapacity[] = [];
  readonly #pendingTags = new Map<string, string>();
  readonly #dynamo: URL;
  readonly #s3: URL;

  constructor(private readonly options: GatewayOptions) {
    this.#dynamo = new URL(options.dynamoEndpoint);
    this.#s3 = new URL(options.s3Endpoint);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const admitted = await this.admit(req, res);
    if (admitted === undefined) return;
    const { call, body } = admitted;
    if (call.service === "dynamodb") return this.toDynamo(req, res, call, body ?? Buffer.alloc(0));
    if (call.service === "s3") return this.toS3(req, res, call, body);
    await this.toStandin(res, call, body ?? Buffer.alloc(0));
  }

  /** Names the request, checks its signature and its role's policy; undefined once refused. */
  private async admit(req: IncomingMessage, res: ServerResponse): Promise<Admitted | undefined> {
    const raw = { method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers };
    // S3 object bodies stay streamed (a copy can be gigabytes); every other body is small JSON.
    const body = signerService(raw) !== "s3" || needsBody(raw) ? await readBody(req) : undefined;
    const full = { ...raw, body: body ?? Buffer.alloc(0) };
    let call: AwsCall;
    try {
      call = parseAwsRequest(full);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.refusals.push({ kind: "unparsed", message });
      send(res, awsError("s3", 400, "InvalidRequest", message));
      return undefined;
    }
    const signed = await verifySignature(full, this.options.secretFor);
    if (!signed.ok) {
      const message = `The request signature does not verify: ${signed.reason}`;
      this.refusals.push({ kind: "unsigned", accessKeyId: call.accessKeyId, call, message });
      send(res, accessDenied(call, message));
      return undefined;
    }
    const verdict = await this.options.gate.authorize(call);
    if (!verdict.allowed) {
      const message = verdict.decisions
        .filter((d) => !d.allowed)
        .map((d) => d.reason ?? "")
        .join(" ");
      this.refusals.push({ kind: "denied", accessKeyId: call.accessKeyId, call, message });
      send(res, accessDenied(call, message));
      return undefined;
    }
    return { call, body };
  }

  /**
   * DynamoDB through dynalite, asked for the capacity the call consumes (ReturnConsumedCapacity
   * TOTAL, which dynalite computes from the item's size as DynamoDB does), recorded for the bill;
   * the answer's ConsumedCapacity is taken out again when the caller did not ask for it.
   */
  private async toDynamo(
    req: IncomingMessage,
    res: ServerResponse,
    call: AwsCall,
    body: Buffer,
  ): Promise<void> {
    const asked = ["TOTAL", "INDEXES"].includes(String(call.input.ReturnConsumedCapacity));
    const sent = asked
      ? body
      : Buffer.from(JSON.stringify({ ...call.input, ReturnConsumedCapacity: "TOTAL" }));
    const answer = await exchange(req, this.#dynamo, sent);
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = JSON.parse(answer.body.toString()) as Record<string, unknown>;
    } catch {
      parsed = undefined;
    }
    this.consumed.push(capacityOf(call, answer.status, parsed));
    let out = answer.body;
    if (!asked && parsed !== undefined && "ConsumedCapacity" in parsed) {
      delete parsed.ConsumedCapacity;
      out = Buffer.from(JSON.stringify(parsed));
    }
    res.writeHead(answer.status, {
      ...answer.headers,
      "content-length": String(out.length),
      "x-amz-crc32": String(crc32(out)),
    });
    res.end(out);
  }

  private async toS3(
    req: IncomingMessage,
    res: ServerResponse,
    call: AwsCall,
    body: Buffer | undefined,
  ): Promise<void> {
    const signed = await signedForS3rver(req, this.#s3, this.options.region);
    const status = await forward(req, res, { url: this.#s3, ...signed }, body);
    if (status >= 300) return;
    const object = `${String(call.input.bucket)}/${String(call.input.key)}`;
    const tagging = req.headers["x-amz-tagging"];
    // A multipart upload's tags are given at its start and apply once it completes.
    if (call.operation === "CreateMultipartUpload" && typeof tagging === "string")
      this.#pendingTags.set(object, tagging);
    const eventName = CREATED[call.operation];
    if (eventName === undefined) return;
    const tags =
      call.operation === "CompleteMultipartUpload" ? this.#pendingTags.get(object) : tagging;
    this.#pendingTags.delete(object);
    this.options.onObjectCreated?.({
      bucket: String(call.input.bucket),
      key: String(call.input.key),
      size: Number(req.headers["content-length"] ?? 0),
      eventName,
      ...(typeof tags === "string" ? { tagging: tags } : {}),
    });
  }

  private async toStandin(res: ServerResponse, call: AwsCall, body: Buffer): Promise<void> {
    const standin = this.options.standins[call.service as keyof GatewayOptions["standins"]];
    if (standin === undefined) {
      const message = `No stand-in answers ${call.service} ${call.operation}.`;
      this.refusals.push({ kind: "standin-failed", call, message });
      return send(res, awsError(call.service, 501, "NotImplemented", message));
    }
    try {
      send(res, await standin(call, body));
    } catch (error) {
      if (error instanceof ServiceError)
        return send(res, awsError(call.service, error.status, error.code, error.message));
      const message = error instanceof Error ? error.message : String(error);
      this.refusals.push({ kind: "standin-failed", call, message });
      send(res, awsError(call.service, 500, "InternalFailure", message));
    }
  }
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const gateway = new GatewayServer(options);
  const server = createServer((req, res) => {
    gateway.handle(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      gateway.refusals.push({ kind: "standin-failed", message });
      if (!res.headersSent) send(res, awsError("s3", 500, "InternalError", message));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refusals: () => [...gateway.refusals],
    consumed: () => [...gateway.consumed],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
