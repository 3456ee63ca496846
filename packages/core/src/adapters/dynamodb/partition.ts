/** Reading one partition of the jobs table's listing index (gsi1), page by page. */
import { QueryCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { JOBS_LIST_INDEX } from "./table-schema.ts";

export interface PartitionQuery {
  partition: string;
  /** Newest (highest sort key) first. */
  descending?: boolean;
  /** A filter on the items, e.g. `eventId = :e`, with its values. */
  filter?: { expression: string; values: Record<string, unknown> };
}

/** The items of the partition, in sort-key order; stop iterating to stop reading. */
export async function* partitionItems(
  db: DynamoDBDocumentClient,
  tableName: string,
  query: PartitionQuery,
): AsyncGenerator<Record<string, unknown>> {
  let start: Record<string, unknown> | undefined;
  do {
    const answer = await db.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: JOBS_LIST_INDEX,
        KeyConditionExpression: "gsi1pk = :p",
        ExpressionAttributeValues: { ":p": query.partition, ...query.filter?.values },
        ...(query.filter === undefined ? {} : { FilterExpression: query.filter.expression }),
        ...(query.descending === true ? { ScanIndexForward: false } : {}),
        ...(start === undefined ? {} : { ExclusiveStartKey: start }),
      }),
    );
    for (const item of answer.Items ?? []) yield item;
    start = answer.LastEvaluatedKey;
  } while (start !== undefined);
}
