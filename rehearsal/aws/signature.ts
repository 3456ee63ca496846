/**
 * SigV4 verification for the rehearsal's gateway: the request is rebuilt from what its signer
 * signed and signed again, with the SDK's own signer and hash, under the secret the rehearsal
 * gave that access key; the call is the key's only if the signatures agree. Re-signing rather
 * than reimplementing SigV4 keeps the canonicalisation (path escaping, query sorting, header
 * folding) exactly the one the functions' clients applied.
 */
import { Sha256 } from "@smithy/core/checksum";
import { SignatureV4 } from "@smithy/signature-v4";
import {
  header,
  needsBody,
  type Query,
  type RawRequest,
  readSigV4,
  type SigV4Scope,
  splitUrl,
} from "./parse.ts";

type SignatureVerdict = { ok: true; accessKeyId: string } | { ok: false; reason: string };

/** AWS refuses a header-signed request whose time is further than this from its own clock. */
const MAX_SKEW_MS = 15 * 60 * 1000;

/** The query parameters presign writes itself (from the credential, date and expiry). */
const PRESIGN_PARAMETERS = [
  "X-Amz-Algorithm",
  "X-Amz-Credential",
  "X-Amz-Date",
  "X-Amz-Expires",
  "X-Amz-SignedHeaders",
  "X-Amz-Signature",
];

/** A request that cannot verify, with the reason the gateway logs. */
class Refused extends Error {}

export async function verifySignature(
  req: RawRequest,
  secretFor: (accessKeyId: string) => string | undefined,
  now: Date = new Date(),
): Promise<SignatureVerdict> {
  try {
    const scope = readSigV4(req);
    if (!scope) throw new Refused("the request is not signed");
    const secretAccessKey = secretFor(scope.accessKeyId);
    if (secretAccessKey === undefined) {
      throw new Refused(`access key ${scope.accessKeyId} is not one the rehearsal issued`);
    }
    const signer = new SignatureV4({
      credentials: { accessKeyId: scope.accessKeyId, secretAccessKey },
      region: scope.region,
      service: scope.service,
      sha256: Sha256,
      // S3 signs its path as sent; every other service escapes it once more (SigV4's rule).
      uriEscapePath: scope.service !== "s3",
      applyChecksum: false,
    });
    const expected = scope.presigned
      ? await presignedSignature(req, scope, signer, now)
      : await headerSignature(req, scope, signer, now);
    if (expected !== scope.signature) throw new Refused("the signature does not match");
    return { ok: true, accessKeyId: scope.accessKeyId };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

async function headerSignature(
  req: RawRequest,
  scope: SigV4Scope,
  signer: SignatureV4,
  now: Date,
): Promise<string> {
  const signingDate = amzDate(header(req, "x-amz-date"), scope);
  if (Math.abs(now.getTime() - signingDate.getTime()) > MAX_SKEW_MS) {
    throw new Refused(
      `the request's time ${signingDate.toISOString()} is more than 15 minutes off`,
    );
  }
  const headers = signedHeaders(req, scope);
  const unsignableHeaders = new Set<string>();
  // AWS hashes the payload as x-amz-content-sha256 says even when it was left unsigned.
  const payloadHash = header(req, "x-amz-content-sha256");
  if (payloadHash !== undefined && !scope.signedHeaders.includes("x-amz-content-sha256")) {
    headers["x-amz-content-sha256"] = payloadHash;
    unsignableHeaders.add("x-amz-content-sha256");
  }
  const body = needsBody(req) ? req.body : undefined;
  if (body && payloadHash !== undefined && /^[0-9a-f]{64}$/.test(payloadHash)) {
    await checkPayload(body, payloadHash);
  }
  const { path, query } = splitUrl(req.url);
  const signed = await signer.sign(
    { method: req.method, protocol: "http:", hostname: "", path, query: bag(query), headers, body },
    { signingDate, signableHeaders: new Set(scope.signedHeaders), unsignableHeaders },
  );
  const authorization = signed.headers.authorization ?? "";
  return /Signature=([0-9a-f]+)/.exec(authorization)?.[1] ?? "";
}

async function presignedSignature(
  req: RawRequest,
  scope: SigV4Scope,
  signer: SignatureV4,
  now: Date,
): Promise<string> {
  const { path, query } = splitUrl(req.url);
  const signingDate = amzDate(query["X-Amz-Date"]?.[0], scope);
  const expiresIn = Number(query["X-Amz-Expires"]?.[0]);
  if (!Number.isInteger(expiresIn) || expiresIn <= 0)
    throw new Refused("X-Amz-Expires is not a duration");
  if (now.getTime() > signingDate.getTime() + expiresIn * 1000) {
    throw new Refused(
      `the presigned URL expired ${expiresIn} s after ${signingDate.toISOString()}`,
    );
  }
  const rest: Query = { ...query };
  for (const name of PRESIGN_PARAMETERS) delete rest[name];
  const headers = signedHeaders(req, scope);
  const unsignable = new Set<string>();
  const hashName = Object.keys(rest).find((name) => name.toLowerCase() === "x-amz-content-sha256");
  if (hashName !== undefined) {
    // It was a header that presign hoisted into the query; as a header again, it is hoisted back
    // under the same name and read as the payload's hash.
    headers[hashName] = rest[hashName]?.[0] ?? "";
    delete rest[hashName];
  } else if (scope.service === "s3") {
    headers["x-amz-content-sha256"] = "UNSIGNED-PAYLOAD";
    unsignable.add("x-amz-content-sha256");
  }
  const presigned = await signer.presign(
    { method: req.method, protocol: "http:", hostname: "", path, query: bag(rest), headers },
    {
      signingDate,
      expiresIn,
      signableHeaders: new Set(scope.signedHeaders),
      unsignableHeaders: unsignable,
      unhoistableHeaders: new Set([...scope.signedHeaders, ...unsignable]),
    },
  );
  const signature = presigned.query?.["X-Amz-Signature"];
  return typeof signature === "string" ? signature : "";
}

/** Only the headers the signer listed: anything added on the way (a proxy's, Node's) is not signed. */
function signedHeaders(req: RawRequest, scope: SigV4Scope): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of scope.signedHeaders) {
    const value = header(req, name);
    if (value === undefined) throw new Refused(`signed header '${name}' is missing`);
    headers[name] = value;
  }
  return headers;
}

/** x-amz-date (YYYYMMDDTHHMMSSZ), which must fall on the credential scope's date. */
function amzDate(value: string | undefined, scope: SigV4Scope): Date {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? "");
  if (!match) throw new Refused(`the signing time '${value ?? ""}' is not YYYYMMDDTHHMMSSZ`);
  if (value?.slice(0, 8) !== scope.date) {
    throw new Refused(`the signing time ${value} is not on the credential's date ${scope.date}`);
  }
  const [, year, month, day, hour, minute, second] = match;
  return new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`);
}

/** The signature covers x-amz-content-sha256, not the body: a body read here must match it. */
async function checkPayload(body: Buffer, expected: string): Promise<void> {
  const hash = new Sha256();
  hash.update(body);
  const actual = Buffer.from(await hash.digest()).toString("hex");
  if (actual !== expected) throw new Refused("the body does not match its x-amz-content-sha256");
}

function bag(query: Query): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(query)) {
    out[name] = values.length === 1 ? (values[0] ?? "") : values;
  }
  return out;
}
