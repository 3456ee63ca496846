/**
 * What one IAM authorization asks, and what the request builders share: the account's facts, the
 * ARNs they name, and reading a call's input without trusting its shape (the gateway parsed it from
 * what a function sent, so a field can be missing or of another type).
 */
import type { AwsCall } from "../aws/call.ts";

/** One authorization IAM makes for a call: an action on a resource, with the request's context keys. */
export interface IamRequest {
  action: string;
  resource: string;
  context: Record<string, string | string[]>;
}

/** What the gate knows of the account the template is deployed to. */
export interface AccountFacts {
  partition: string;
  region: string;
  accountId: string;
  /** The partition key attribute of a table, or of one of its indexes (undefined: unknown table/index). */
  partitionKeyOf(table: string, index?: string): string | undefined;
}

/** A call the gate cannot map to IAM actions fails: an unmapped call must not pass unchecked. */
export function unknownOperation(call: AwsCall): Error {
  return new Error(
    `IAM gate: no IAM mapping for ${call.service} ${call.operation}; the call is refused rather than let through unchecked`,
  );
}

/** A call whose input lacks what its authorization depends on (AWS would reject it too). */
export function malformed(call: AwsCall, what: string): Error {
  return new Error(`IAM gate: ${call.service} ${call.operation} ${what}`);
}

/** A regional ARN in the account: `arn:<partition>:<service>:<region>:<account>:<resource>`. */
export function regionalArn(facts: AccountFacts, service: string, resource: string): string {
  return `arn:${facts.partition}:${service}:${facts.region}:${facts.accountId}:${resource}`;
}

export function request(
  action: string,
  resource: string,
  context: IamRequest["context"] = {},
): IamRequest {
  return { action, resource, context };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A required non-empty string field of the call's input. */
export function stringField(call: AwsCall, input: Record<string, unknown>, field: string): string {
  const value = input[field];
  if (typeof value !== "string" || value === "") throw malformed(call, `has no ${field}`);
  return value;
}

export function optionalString(input: Record<string, unknown>, field: string): string | undefined {
  const value = input[field];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A required array field; its elements are checked by whoever reads them. */
export function arrayField(
  call: AwsCall,
  input: Record<string, unknown>,
  field: string,
): unknown[] {
  const value = input[field];
  if (!Array.isArray(value) || value.length === 0) throw malformed(call, `has no ${field}`);
  return value;
}

export function recordField(
  call: AwsCall,
  input: Record<string, unknown>,
  field: string,
): Record<string, unknown> {
  const value = input[field];
  if (!isRecord(value)) throw malformed(call, `has no ${field}`);
  return value;
}

/** Distinct values in first-seen order: a condition key's values are a set. */
export function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}
