/**
 * `npm run migrate -- [--dry-run] [--data-dir DIR | --table NAME --bucket NAME] [--checkpoint FILE]`
 *
 * Brings stored data to this release's schema version (scripts/migration.ts says how). Without
 * --table it migrates a local stack's data dir (default .reelay; stop the stack first: its
 * DynamoDB and S3 stand-ins hold the dir); with --table and --bucket, a deployed stage's table and
 * bucket, through the AWS SDK's clients and their usual credentials and region (AWS_PROFILE,
 * AWS_REGION, ...).
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { S3Client } from "@aws-sdk/client-s3";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { startStandins } from "@reelay/local/aws-standins";
import { migrate, type MigrationTarget } from "./migration.ts";

const { values } = parseArgs({
  options: {
    "dry-run": { type: "boolean", default: false },
    "data-dir": { type: "string", default: ".reelay" },
    table: { type: "string" },
    bucket: { type: "string" },
    checkpoint: { type: "string" },
  },
});

async function target(): Promise<{
  target: MigrationTarget;
  checkpoint: string;
  close(): Promise<void>;
}> {
  if (values.table === undefined) {
    const dataDir = values["data-dir"];
    const standins = await startStandins({ dataDir });
    return {
      target: standins,
      checkpoint: values.checkpoint ?? join(dataDir, "migrate-checkpoint.json"),
      close: () => standins.close(),
    };
  }
  if (values.bucket === undefined) throw new Error("--table needs --bucket (the stage's bucket)");
  return {
    target: {
      ddb: DynamoDBDocumentClient.from(new DynamoDBClient({})),
      tableName: values.table,
      s3: new S3Client({}),
      bucket: values.bucket,
    },
    checkpoint: values.checkpoint ?? `migrate-checkpoint-${values.table}.json`,
    close: async () => undefined,
  };
}

const opened = await target();
try {
  const report = await migrate(opened.target, {
    dryRun: values["dry-run"],
    checkpointFile: opened.checkpoint,
    log: (line) => console.log(line),
  });
  const verb = values["dry-run"] ? "would stamp" : "stamped";
  for (const [what, c] of [
    ["items", report.items],
    ["objects", report.objects],
  ] as const)
    console.log(
      `${what}: ${verb} ${c.changed}, already current ${c.current}, newer (left alone) ${c.newer}`,
    );
  if (report.items.newer + report.objects.newer > 0) process.exitCode = 1;
} finally {
  await opened.close();
}
