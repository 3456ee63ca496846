/** DynamoDB's answer when a conditional write's condition did not hold (the SDK's class or its name). */
export function isConditionFailure(error: unknown): boolean {
  return (error as { name?: string } | null)?.name === "ConditionalCheckFailedException";
}
