/** The jobs table in dynalite: created when missing, waited for until ACTIVE. */
import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
} from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createJobsTableInput } from "@reelay/core/adapters";

const TABLE_WAIT_STEP_MS = 50;
/** dynalite turns a new table ACTIVE on a timer; past this, a CREATING table was left by a crash. */
const TABLE_WAIT_STEPS = 100;

function isNotFound(error: unknown): boolean {
  return (
    error instanceof ResourceNotFoundException ||
    (error as { name?: string }).name === "ResourceNotFoundException"
  );
}

/** The jobs table is CREATING for good: dynalite's timer that would finish it died with a process. */
export class TableStuckError extends Error {
  override name = "TableStuckError";
}

/**
 * Creates the jobs table when missing and returns once it is ACTIVE: dynalite answers "not found"
 * to reads of a table that is still CREATING. A table that stays CREATING was persisted by a
 * process killed mid-creation; dynalite will neither finish nor delete it (TableStuckError).
 */
export async function ensureTable(ddb: DynamoDBDocumentClient, tableName: string): Promise<void> {
  for (let step = 0; ; step++) {
    let status: string | undefined;
    try {
      status = (await ddb.send(new DescribeTableCommand({ TableName: tableName }))).Table
        ?.TableStatus;
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await ddb
        .send(new CreateTableCommand(createJobsTableInput(tableName)))
        .catch((created: unknown) => {
          if ((created as { name?: string }).name !== "ResourceInUseException") throw created;
        });
      continue;
    }
    if (status === "ACTIVE") return;
    if (step >= TABLE_WAIT_STEPS)
      throw new TableStuckError(`Table ${tableName} is stuck in ${status ?? "an unknown status"}.`);
    await new Promise((resolve) => setTimeout(resolve, TABLE_WAIT_STEP_MS));
  }
}
