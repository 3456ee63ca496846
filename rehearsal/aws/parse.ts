/**
 * Names the AWS call in a raw HTTP request that reached the rehearsal's gateway: who signed it
 * (the SigV4 credential), which service and operation, and what it names (call.ts). The wire
 * formats are those of the SDK clients in node_modules: JSON 1.0 (DynamoDB, Step Functions), JSON
 * 1.1 (EventBridge, SSM), REST-JSON (Lambda, X-Ray) and REST-XML (S3, path-style). None of them
 * speaks Smithy RPCv2 CBOR yet; such a request is refused by name rather than guessed at.
 */
import type { AwsCall, AwsService, S3Input, S3Target } from "./call.ts";

export interface RawRequest {
  method: string;
  /** Path and query, as Node's IncomingMessage.url. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** Empty for S3 object bodies, which stream past the parser (see needsBody). */
  body: Buffer;
}

/** The request is not a call the rehearsal can name; the message says what was missing. */
export class UnparsedRequest extends Error {
  override name = "UnparsedRequest";
}

/** What a SigV4 signature says about its signer, from the Authorization header or the query. */
export interface SigV4Scope {
  accessKeyId: string;
  /** The credential scope's date, YYYYMMDD. */
  date: string;
  region: string;
  service: string;
  /** Lowercase header names, in the order the signer listed them. */
  signedHeaders: string[];
  signature: string;
  presigned: boolean;
}

const SERVICES: readonly AwsService[] = [
  "dynamodb",
  "s3",
  "events",
  "ssm",
  "lambda",
  "states",
  "xray",
];

export function parseAwsRequest(req: RawRequest): AwsCall {
  const scope = readSigV4(req);
  if (!scope) {
    throw unparsed(
      req,
      "it carries no SigV4 signature (no Authorization header or X-Amz-Credential)",
    );
  }
  const service = serviceOf(req, scope.service);
  const { operation, input } = PARSERS[service](req, service);
  return { accessKeyId: scope.accessKeyId, service, operation, input };
}

/** Presigned URLs carry their signature in the query (S3's GetObject and PutObject links). */
export function isPresigned(req: Pick<RawRequest, "url">): boolean {
  try {
    return splitUrl(req.url).query["X-Amz-Credential"] !== undefined;
  } catch {
    return false;
  }
}

/**
 * Whether parseAwsRequest reads the body. The JSON protocols name their input there and
 * DeleteObjects its keys; every other body (S3 objects and parts, Lambda payloads) is left to
 * stream to the stand-in, so the gateway never holds a whole object in memory.
 */
export function needsBody(req: Pick<RawRequest, "method" | "url" | "headers">): boolean {
  if (header(req, "x-amz-target") !== undefined) return true;
  let service: string | undefined;
  try {
    service = readSigV4(req)?.service;
  } catch {
    return false;
  }
  if (service === "s3") {
    return req.method === "POST" && bucketLevel(req.url) && "delete" in splitUrl(req.url).query;
  }
  return service === "xray" || (service !== undefined && service in JSON_PREFIXES_BY_SERVICE);
}

/**
 * The signer's credential and scope, or undefined when the request is not signed at all. A
 * signature that is there but malformed throws: it is neither anonymous nor nameable.
 */
export function readSigV4(
  req: Pick<RawRequest, "method" | "url" | "headers">,
): SigV4Scope | undefined {
  const authorization = header(req, "authorization");
  if (authorization !== undefined) return fromAuthorization(req, authorization);
  const query = splitUrl(req.url).query;
  const credential = single(query["X-Amz-Credential"]);
  if (credential === undefined) return undefined;
  if (single(query["X-Amz-Algorithm"]) !== "AWS4-HMAC-SHA256") {
    throw unparsed(req, "its presigned URL is not signed with AWS4-HMAC-SHA256");
  }
  return {
    ...credentialScope(req, credential),
    signedHeaders: (single(query["X-Amz-SignedHeaders"]) ?? "").split(";").filter(Boolean),
    signature: single(query["X-Amz-Signature"]) ?? "",
    presigned: true,
  };
}

function fromAuthorization(req: Pick<RawRequest, "method" | "url">, value: string): SigV4Scope {
  const match = /^AWS4-HMAC-SHA256\s+(.*)$/s.exec(value.trim());
  if (!match?.[1]) throw unparsed(req, "its Authorization header is not AWS4-HMAC-SHA256");
  const fields = new Map<string, string>();
  for (const part of match[1].split(",")) {
    const at = part.indexOf("=");
    if (at > 0) fields.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  const credential = fields.get("Credential");
  const signedHeaders = fields.get("SignedHeaders");
  const signature = fields.get("Signature");
  if (!credential || !signedHeaders || !signature) {
    throw unparsed(req, "its Authorization header lacks Credential, SignedHeaders or Signature");
  }
  return {
    ...credentialScope(req, credential),
    signedHeaders: signedHeaders.split(";").filter(Boolean),
    signature,
    presigned: false,
  };
}

function credentialScope(req: Pick<RawRequest, "method" | "url">, credential: string) {
  const [accessKeyId, date, region, service, terminator, ...rest] = credential.split("/");
  if (
    !accessKeyId ||
    !date ||
    !region ||
    !service ||
    terminator !== "aws4_request" ||
    rest.length
  ) {
    throw unparsed(
      req,
      `its SigV4 credential '${credential}' is not AKID/DATE/REGION/SERVICE/aws4_request`,
    );
  }
  return { accessKeyId, date, region, service };
}

function serviceOf(req: RawRequest, signingName: string): AwsService {
  const service = SERVICES.find((known) => known === signingName);
  if (!service) {
    throw unparsed(
      req,
      `it is signed for '${signingName}', a service the rehearsal has no stand-in for`,
    );
  }
  return service;
}

type Parsed = Pick<AwsCall, "operation" | "input">;

const PARSERS: Record<AwsService, (req: RawRequest, service: AwsService) => Parsed> = {
  dynamodb: parseJsonRpc,
  events: parseJsonRpc,
  ssm: parseJsonRpc,
  states: parseJsonRpc,
  xray: parseXRay,
  lambda: parseLambda,
  s3: parseS3,
};

/** The X-Amz-Target prefix each JSON 1.0/1.1 service names its operations with. */
const JSON_PREFIXES_BY_SERVICE: Partial<Record<AwsService, string>> = {
  dynamodb: "DynamoDB_20120810",
  events: "AWSEvents",
  ssm: "AmazonSSM",
  states: "AWSStepFunctions",
};

function parseJsonRpc(req: RawRequest, service: AwsService): Parsed {
  const target = header(req, "x-amz-target");
  if (target === undefined) {
    const cbor =
      header(req, "smithy-protocol") === "rpc-v2-cbor" ? " (a Smithy RPCv2 CBOR request)" : "";
    throw unparsed(req, `a ${service} request without an X-Amz-Target header${cbor}`);
  }
  const dot = target.indexOf(".");
  const prefix = target.slice(0, dot);
  const operation = target.slice(dot + 1);
  if (
    dot < 0 ||
    prefix !== JSON_PREFIXES_BY_SERVICE[service] ||
    !/^[A-Za-z0-9]+$/.test(operation)
  ) {
    throw unparsed(req, `X-Amz-Target '${target}' is not a ${service} operation`);
  }
  if (req.method !== "POST") throw unparsed(req, `${target} must be a POST`);
  return { operation, input: jsonBody(req) };
}

/** X-Ray is REST-JSON: the operation is the path, and every one is a POST with a JSON body. */
const XRAY_PATHS: Record<string, string> = {
  "/TraceSegments": "PutTraceSegments",
  "/TelemetryRecords": "PutTelemetryRecords",
  "/GetSamplingRules": "GetSamplingRules",
  "/SamplingTargets": "GetSamplingTargets",
};

function parseXRay(req: RawRequest): Parsed {
  const operation = req.method === "POST" ? XRAY_PATHS[splitUrl(req.url).path] : undefined;
  if (!operation) throw unparsed(req, "not an X-Ray operation the rehearsal knows");
  return { operation, input: jsonBody(req) };
}

const INVOCATION_TYPES = ["RequestResponse", "Event", "DryRun"];

/** Only Invoke: the payload is the invoked function's business, not the caller's permission. */
function parseLambda(req: RawRequest): Parsed {
  const { path, query } = splitUrl(req.url);
  const match = /^\/2015-03-31\/functions\/([^/]+)\/invocations\/?$/.exec(path);
  if (req.method !== "POST" || !match?.[1]) {
    throw unparsed(
      req,
      "not Lambda's Invoke (POST /2015-03-31/functions/{FunctionName}/invocations)",
    );
  }
  const invocationType = header(req, "x-amz-invocation-type") ?? "RequestResponse";
  if (!INVOCATION_TYPES.includes(invocationType)) {
    throw unparsed(req, `X-Amz-Invocation-Type '${invocationType}' is not one Lambda knows`);
  }
  const input: Record<string, unknown> = {
    FunctionName: decode(req, match[1]),
    InvocationType: invocationType,
  };
  const qualifier = single(query.Qualifier);
  if (qualifier !== undefined) input.Qualifier = qualifier;
  return { operation: "Invoke", input };
}

function jsonBody(req: RawRequest): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(req.body.toString("utf8"));
  } catch {
    throw unparsed(req, "its body is not JSON (was it read before parsing? see needsBody)");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw unparsed(req, "its JSON body is not an object");
  }
  return parsed as Record<string, unknown>;
}

/*
 * S3 (REST-XML, path-style: /{bucket}/{key...}). The operation is the method, the level (bucket or
 * object), the subresources in the query and, for PUT, whether a copy source is named. A
 * combination missing from this table is refused, never read as the nearest plain operation.
 */
const S3_OPERATIONS: Record<string, string> = {
  "GET object": "GetObject",
  "GET object partNumber": "GetObject",
  "HEAD object": "HeadObject",
  "HEAD object partNumber": "HeadObject",
  "PUT object": "PutObject",
  "PUT object +copy": "CopyObject",
  "DELETE object": "DeleteObject",
  "PUT object partNumber&uploadId": "UploadPart",
  "PUT object partNumber&uploadId +copy": "UploadPartCopy",
  "POST object uploads": "CreateMultipartUpload",
  "POST object uploadId": "CompleteMultipartUpload",
  "DELETE object uploadId": "AbortMultipartUpload",
  "GET object uploadId": "ListParts",
  "GET object tagging": "GetObjectTagging",
  "PUT object tagging": "PutObjectTagging",
  "DELETE object tagging": "DeleteObjectTagging",
  "GET bucket": "ListObjects",
  "GET bucket list-type": "ListObjectsV2",
  "GET bucket uploads": "ListMultipartUploads",
  "HEAD bucket": "HeadBucket",
  "PUT bucket": "CreateBucket",
  "DELETE bucket": "DeleteBucket",
  "POST bucket delete": "DeleteObjects",
  "GET bucket location": "GetBucketLocation",
  "GET bucket lifecycle": "GetBucketLifecycleConfiguration",
  "GET bucket notification": "GetBucketNotificationConfiguration",
};

/** The query keys that choose the operation. */
const S3_SUBRESOURCES = new Set([
  "delete",
  "lifecycle",
  "list-type",
  "location",
  "notification",
  "partNumber",
  "tagging",
  "uploadId",
  "uploads",
]);

/** The query keys that are an operation's parameters; any other key is refused. */
const S3_PARAMETERS = new Set([
  "x-id",
  "versionId",
  "prefix",
  "delimiter",
  "marker",
  "max-keys",
  "encoding-type",
  "continuation-token",
  "fetch-owner",
  "start-after",
  "key-marker",
  "upload-id-marker",
  "max-uploads",
  "max-parts",
  "part-number-marker",
  "response-cache-control",
  "response-content-disposition",
  "response-content-encoding",
  "response-content-language",
  "response-content-type",
  "response-expires",
]);

function parseS3(req: RawRequest): Parsed {
  const { path, query } = splitUrl(req.url);
  const target = s3Target(req, path);
  const operation = s3Operation(req, target, query);
  const input: S3Input = { ...target, tagging: false };
  if (operation === "CopyObject" || operation === "UploadPartCopy") {
    input.copySource = copySource(req);
  }
  input.tagging = header(req, "x-amz-tagging") !== undefined || operation === "PutObjectTagging";
  if (operation === "CopyObject") input.taggingDirective = taggingDirective(req);
  const prefix = single(query.prefix);
  if (operation.startsWith("List") && prefix !== undefined) input.prefix = prefix;
  if (operation === "DeleteObjects") input.deleteKeys = deleteKeys(req);
  return { operation, input: { ...input } };
}

function s3Target(req: RawRequest, path: string): S3Target {
  const slash = path.indexOf("/", 1);
  const bucket = decode(req, slash < 0 ? path.slice(1) : path.slice(1, slash));
  if (!bucket)
    throw unparsed(req, "an S3 request that names no bucket (ListBuckets is not stood in for)");
  const key = slash < 0 ? "" : decode(req, path.slice(slash + 1));
  return key ? { bucket, key } : { bucket };
}

function s3Operation(req: RawRequest, target: S3Target, query: Query): string {
  const subresources: string[] = [];
  for (const name of Object.keys(query)) {
    if (S3_SUBRESOURCES.has(name)) subresources.push(name);
    else if (!S3_PARAMETERS.has(name) && !name.toLowerCase().startsWith("x-amz-")) {
      throw unparsed(req, `S3 query parameter '${name}' is not one the rehearsal knows`);
    }
  }
  if (query["list-type"] !== undefined && single(query["list-type"]) !== "2") {
    throw unparsed(req, "S3 list-type other than 2");
  }
  const level = target.key === undefined ? "bucket" : "object";
  const copy = req.method === "PUT" && header(req, "x-amz-copy-source") !== undefined;
  const rule = `${req.method} ${level}${subresources.length ? " " : ""}${subresources.sort().join("&")}`;
  const operation = S3_OPERATIONS[copy ? `${rule} +copy` : rule];
  if (!operation)
    throw unparsed(req, `no S3 operation is ${copy ? `${rule} with a copy source` : rule}`);
  return operation;
}

/** `bucket/key`, URL-encoded, with an optional leading slash and `?versionId=`. */
function copySource(req: RawRequest): S3Target {
  const raw = header(req, "x-amz-copy-source") ?? "";
  const versioned = raw.indexOf("?versionId=");
  const source = decode(req, versioned < 0 ? raw : raw.slice(0, versioned)).replace(/^\//, "");
  const slash = source.indexOf("/");
  if (slash <= 0 || slash === source.length - 1) {
    throw unparsed(req, `x-amz-copy-source '${raw}' is not bucket/key`);
  }
  return { bucket: source.slice(0, slash), key: source.slice(slash + 1) };
}

function taggingDirective(req: RawRequest): "COPY" | "REPLACE" {
  const directive = header(req, "x-amz-tagging-directive") ?? "COPY";
  if (directive !== "COPY" && directive !== "REPLACE") {
    throw unparsed(req, `x-amz-tagging-directive '${directive}' is neither COPY nor REPLACE`);
  }
  return directive;
}

function deleteKeys(req: RawRequest): string[] {
  const xml = req.body.toString("utf8");
  if (!xml.includes("<Delete")) {
    throw unparsed(req, "DeleteObjects without its <Delete> XML body (see needsBody)");
  }
  return [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) => xmlText(match[1] ?? ""));
}

const XML_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** The SDK escapes the five entities and writes control characters (a key's \n) as &#x0A;. */
function xmlText(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (entity, name: string) => {
    if (name.startsWith("#x")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return XML_ENTITIES[name] ?? entity;
  });
}

function bucketLevel(url: string): boolean {
  const path = splitUrl(url).path;
  const slash = path.indexOf("/", 1);
  return slash < 0 || slash === path.length - 1;
}

/** Query parameters, decoded, each with every value it was given (in order). */
export type Query = Record<string, string[]>;

/** The raw (still encoded) path and the decoded query: SigV4 signs the path as sent. */
export function splitUrl(url: string): { path: string; query: Query } {
  const mark = url.indexOf("?");
  const path = mark < 0 ? url : url.slice(0, mark);
  const query: Query = {};
  if (mark >= 0) {
    for (const pair of url.slice(mark + 1).split("&")) {
      if (!pair) continue;
      const eq = pair.indexOf("=");
      const name = decodeQuery(url, eq < 0 ? pair : pair.slice(0, eq));
      const value = eq < 0 ? "" : decodeQuery(url, pair.slice(eq + 1));
      query[name] = [...(query[name] ?? []), value];
    }
  }
  return { path, query };
}

function decodeQuery(url: string, text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new UnparsedRequest(
      `Cannot name the AWS call in ${url}: '${text}' is not valid percent-encoding`,
    );
  }
}

function decode(req: Pick<RawRequest, "method" | "url">, text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw unparsed(req, `'${text}' is not valid percent-encoding`);
  }
}

function single(values: string[] | undefined): string | undefined {
  return values?.[0];
}

/** A header's value, by lowercase name (Node lowercases them; a hand-built request may not). */
export function header(req: Pick<RawRequest, "headers">, name: string): string | undefined {
  let value = req.headers[name];
  if (value === undefined) {
    const found = Object.keys(req.headers).find((key) => key.toLowerCase() === name);
    value = found === undefined ? undefined : req.headers[found];
  }
  return Array.isArray(value) ? value.join(",") : value;
}

function unparsed(req: Pick<RawRequest, "method" | "url">, why: string): UnparsedRequest {
  const path = req.url.split("?")[0];
  return new UnparsedRequest(`Cannot name the AWS call in ${req.method} ${path}: ${why}`);
}
