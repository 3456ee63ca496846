/**
 * Every IAM authorization an AWS call needs, as IAM would make them for the caller's role: all of
 * them must be allowed for the call to be. A call the gate has no mapping for throws, so that the
 * rehearsal fails it instead of letting it through unchecked.
 */
import type { AwsCall } from "../aws/call.ts";
import { dynamodbRequests } from "./dynamodb-requests.ts";
import { type AccountFacts, type IamRequest, malformed, unknownOperation } from "./iam-request.ts";
import { s3Requests } from "./s3-requests.ts";
import {
  eventsRequests,
  lambdaRequests,
  ssmRequests,
  statesRequests,
  xrayRequests,
} from "./service-requests.ts";

export type { AccountFacts, IamRequest } from "./iam-request.ts";

export function iamRequestsFor(call: AwsCall, facts: AccountFacts): IamRequest[] {
  const requests = requestsOf(call, facts);
  // A call that needs no authorization would pass whatever the policies say (a batch of no tables).
  if (requests.length === 0) throw malformed(call, "names nothing to authorize");
  // The same authorization named twice (two entries to one bus, one key deleted twice) is one.
  const seen = new Set<string>();
  return requests.filter((r) => {
    const key = requestKey(r);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function requestsOf(call: AwsCall, facts: AccountFacts): IamRequest[] {
  switch (call.service) {
    case "dynamodb":
      return dynamodbRequests(call, facts);
    case "s3":
      return s3Requests(call, facts);
    case "events":
      return eventsRequests(call, facts);
    case "ssm":
      return ssmRequests(call, facts);
    case "lambda":
      return lambdaRequests(call, facts);
    case "states":
      return statesRequests(call);
    case "xray":
      return xrayRequests(call);
    default:
      // The type names every service, but the gateway's parse is what runs.
      throw unknownOperation(call);
  }
}

/** One string per distinct authorization: context keys in order, multi-valued keys as sets. */
export function requestKey(request: IamRequest): string {
  const context = Object.keys(request.context)
    .sort()
    .map((key) => {
      const value = request.context[key] as string | string[];
      return [key, Array.isArray(value) ? [...new Set(value)].sort() : value];
    });
  return JSON.stringify([request.action, request.resource, context]);
}
