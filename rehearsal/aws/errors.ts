/**
 * Error answers shaped as each AWS protocol sends them, so that a function's real SDK client
 * raises the same error (name, status, message) it would in AWS: the IAM gate's refusals above
 * all, which must read as AccessDenied to the code under rehearsal, not as a broken endpoint.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { AwsCall, AwsService } from "./call.ts";

export interface AwsErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The JSON RPC services, by their protocol's version (the content type names it). */
const JSON_RPC: Partial<Record<AwsService, string>> = {
  dynamodb: "1.0",
  states: "1.0",
  events: "1.1",
  ssm: "1.1",
};

/**
 * Errors AWS's shared request layer raises before the service sees the call: it names them in its
 * own namespace and with a capitalised Message, which the SDK reads as readily as the services'.
 */
const SHARED_LAYER_CODES = new Set([
  "AccessDeniedException",
  "IncompleteSignatureException",
  "InvalidSignatureException",
  "MissingAuthenticationTokenException",
  "UnrecognizedClientException",
]);

/**
 * The IAM gate's refusal. The JSON RPC services answer it with 400 (as AWS does: DynamoDB,
 * EventBridge, SSM and Step Functions all report AccessDeniedException with status 400), the REST
 * ones with 403; S3 calls it AccessDenied, and answers a HEAD with no body at all.
 */
export function accessDenied(
  call: Pick<AwsCall, "service" | "operation">,
  message: string,
): AwsErrorAnswer {
  if (call.service === "s3") {
    const answer = awsError("s3", 403, "AccessDenied", message);
    return call.operation.startsWith("Head") ? { ...answer, body: "" } : answer;
  }
  const status = JSON_RPC[call.service] ? 400 : 403;
  return awsError(call.service, status, "AccessDeniedException", message);
}

export function awsError(
  service: AwsService,
  status: number,
  code: string,
  message: string,
): AwsErrorAnswer {
  if (service === "s3") return s3Error(status, code, message);
  const version = JSON_RPC[service];
  const shared = SHARED_LAYER_CODES.has(code);
  const headers = {
    "content-type": version ? `application/x-amz-json-${version}` : "application/json",
    "x-amzn-requestid": randomUUID(),
    "x-amzn-errortype": code,
  };
  if (!version) return { status, headers, body: JSON.stringify({ Message: message }) };
  const body = shared
    ? { __type: `com.amazon.coral.service#${code}`, Message: message }
    : { __type: code, message };
  return { status, headers, body: JSON.stringify(body) };
}

function s3Error(status: number, code: string, message: string): AwsErrorAnswer {
  const requestId = randomBytes(8).toString("hex").toUpperCase();
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${xmlEscape(code)}</Code><Message>${xmlEscape(message)}</Message>` +
    `<RequestId>${requestId}</RequestId></Error>`;
  const headers = {
    "content-type": "application/xml",
    "x-amz-request-id": requestId,
    "x-amz-id-2": randomBytes(24).toString("base64"),
  };
  return { status, headers, body };
}

function xmlEscape(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}
