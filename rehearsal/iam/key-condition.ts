/**
 * The partition key value a DynamoDB Query names: what `dynamodb:LeadingKeys` holds for it. A Query
 * must test its partition key for equality ("The condition must perform an equality test on a
 * single partition key value", Query's KeyConditionExpression in the DynamoDB API reference), in
 * KeyConditionExpression or, in the legacy form, as an EQ entry of KeyConditions.
 */
import type { AwsCall } from "../aws/call.ts";
import { isRecord, malformed, optionalString } from "./iam-request.ts";

/** Operands, placeholders and the operators a key condition can hold; `<=` and `>=` kept whole. */
const TOKENS = /[#:]?[\w.-]+|<=|>=|<>|[=<>(),]/g;

/** The AttributeValue the Query's key condition gives its partition key `partitionKey`. */
export function partitionKeyValue(
  call: AwsCall,
  input: Record<string, unknown>,
  partitionKey: string,
): unknown {
  const expression = optionalString(input, "KeyConditionExpression");
  const value =
    expression === undefined
      ? fromKeyConditions(input.KeyConditions, partitionKey)
      : fromExpression(call, expression, input, partitionKey);
  if (value === undefined)
    throw malformed(call, `tests no equality on its partition key ${partitionKey}`);
  return value;
}

function fromExpression(
  call: AwsCall,
  expression: string,
  input: Record<string, unknown>,
  partitionKey: string,
): unknown {
  const names = isRecord(input.ExpressionAttributeNames) ? input.ExpressionAttributeNames : {};
  const values = isRecord(input.ExpressionAttributeValues) ? input.ExpressionAttributeValues : {};
  const nameOf = (token: string): unknown => (token.startsWith("#") ? names[token] : token);
  const tokens = expression.match(TOKENS) ?? [];
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (tokens[i + 1] !== "=") continue;
    const [left, right] = [tokens[i] as string, tokens[i + 2] as string];
    const placeholder =
      nameOf(left) === partitionKey ? right : nameOf(right) === partitionKey ? left : undefined;
    if (placeholder === undefined || !placeholder.startsWith(":")) continue;
    if (!(placeholder in values))
      throw malformed(call, `uses ${placeholder} without an ExpressionAttributeValues entry`);
    return values[placeholder];
  }
  return undefined;
}

function fromKeyConditions(keyConditions: unknown, partitionKey: string): unknown {
  if (!isRecord(keyConditions)) return undefined;
  const condition = keyConditions[partitionKey];
  if (!isRecord(condition) || condition.ComparisonOperator !== "EQ") return undefined;
  const list = condition.AttributeValueList;
  return Array.isArray(list) ? list[0] : undefined;
}
