/**
 * The jobs table as data, so the SST stack and the local stack create the same table: partition key
 * `pk`, and the listing index `gsi1` (gsi1pk, gsi1sk). item-keys.ts names every item's keys. One
 * partition for the job listing is fine at the rate jobs are created (each costs minutes of
 * upstream generation).
 */
import type { CreateTableCommandInput } from "@aws-sdk/client-dynamodb";
import type { Job } from "../../domain/jobs/types.ts";

export const JOBS_TABLE_SCHEMA = {
  partitionKey: { name: "pk", type: "S" },
  indexes: [
    {
      name: "gsi1",
      partitionKey: { name: "gsi1pk", type: "S" },
      sortKey: { name: "gsi1sk", type: "S" },
      projection: "ALL",
    },
  ],
} as const;

export const JOBS_LIST_INDEX = JOBS_TABLE_SCHEMA.indexes[0].name;

/**
 * The table's TTL attribute (epoch seconds): a job's record carries it once its outputs have an
 * expiry (Job.recordTtl); no other item does, so only job records ever expire.
 */
export const RECORD_TTL_ATTRIBUTE = "recordTtl" satisfies keyof Job;

/** CreateTable input for the local stack and tests (on AWS the stack declares the same schema). */
export function createJobsTableInput(tableName: string): CreateTableCommandInput {
  const index = JOBS_TABLE_SCHEMA.indexes[0];
  return {
    TableName: tableName,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [
      { AttributeName: JOBS_TABLE_SCHEMA.partitionKey.name, AttributeType: "S" },
      { AttributeName: index.partitionKey.name, AttributeType: "S" },
      { AttributeName: index.sortKey.name, AttributeType: "S" },
    ],
    KeySchema: [{ AttributeName: JOBS_TABLE_SCHEMA.partitionKey.name, KeyType: "HASH" }],
    GlobalSecondaryIndexes: [
      {
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey.name, KeyType: "HASH" },
          { AttributeName: index.sortKey.name, KeyType: "RANGE" },
        ],
        Projection: { ProjectionType: "ALL" },
      },
    ],
  };
}
