/**
 * A Lambda integration's answer as an HTTP API turns it into a response (payload format 2.0): an
 * object with a statusCode is read as the response (headers, cookies as set-cookie headers, a
 * base64 body decoded); any other JSON value is a 200 application/json response whose body is that
 * value; a function error is API Gateway's own 500.
 */
import { isRecord } from "./template.ts";
import type { Invoke } from "./types.ts";

export interface ApiResponse {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** API Gateway's own answers, as it words them. */
export function gatewayResponse(status: number, message: string): ApiResponse {
  return {
    status,
    headers: [["content-type", "application/json"]],
    body: Buffer.from(JSON.stringify({ message })),
  };
}

export const internalError = () => gatewayResponse(500, "Internal Server Error");

type Scalar = string | number | boolean;
const isScalar = (v: unknown): v is Scalar => ["string", "number", "boolean"].includes(typeof v);

function headerPairs(payload: Record<string, unknown>): [string, string][] | undefined {
  const pairs: [string, string][] = [];
  const { headers, multiValueHeaders, cookies } = payload;
  if (headers !== undefined && !isRecord(headers)) return undefined;
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!isScalar(value)) return undefined;
    pairs.push([name.toLowerCase(), String(value)]);
  }
  if (isRecord(multiValueHeaders)) {
    for (const [name, values] of Object.entries(multiValueHeaders)) {
      if (!Array.isArray(values)) return undefined;
      for (const value of values) pairs.push([name.toLowerCase(), String(value)]);
    }
  }
  if (cookies !== undefined && !Array.isArray(cookies)) return undefined;
  for (const cookie of (cookies as unknown[] | undefined) ?? []) {
    pairs.push(["set-cookie", String(cookie)]);
  }
  return pairs;
}

/** A structured response; undefined when malformed, which API Gateway answers with a 500. */
function structured(payload: Record<string, unknown>): ApiResponse | undefined {
  const { statusCode, body, isBase64Encoded } = payload;
  if (typeof statusCode !== "number" || !Number.isInteger(statusCode)) return undefined;
  if (statusCode < 100 || statusCode > 599) return undefined;
  if (body !== undefined && body !== null && typeof body !== "string") return undefined;
  const headers = headerPairs(payload);
  if (!headers) return undefined;
  const text = body ?? "";
  return {
    status: statusCode,
    headers,
    body: isBase64Encoded === true ? Buffer.from(text, "base64") : Buffer.from(text, "utf8"),
  };
}

export function mapResult(result: Awaited<ReturnType<Invoke>>): ApiResponse {
  if (!result.ok) return internalError();
  const { payload } = result;
  if (isRecord(payload) && "statusCode" in payload) return structured(payload) ?? internalError();
  return {
    status: 200,
    headers: [["content-type", "application/json"]],
    body: Buffer.from(JSON.stringify(payload ?? null)),
  };
}
