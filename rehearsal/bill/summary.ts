/**
 * The bill of what a rehearsal ran (npm run rehearse prints it and keeps it beside its report):
 * every job the scenarios made, priced per 1,000 jobs as bill.ts prices them, the job flow's
 * transitions, steps and looks as the rehearsal ran them. Its jobs end in seconds and many end
 * early on purpose (a cancel, a timeout, a failed task), so this is the bill of the scenarios, not
 * of a real mix: `npm run bench -- --only bill` has that (docs/performance.md).
 */
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { JOBS_TABLE_SCHEMA } from "@reelay/core/adapters";
import type { Stage } from "../stage.ts";
import { type Bill, billPer1000Jobs } from "./bill.ts";
import { PRICES } from "./prices.ts";
import { rehearsedFlow, rehearsedJob } from "./record.ts";

export interface RehearsalBill {
  jobs: number;
  region: string;
  pricesReadOn: string;
  perThousandJobs: Bill;
}

/** Every job record in the stage's table, read past the gateway. */
async function jobIds(stage: Stage): Promise<string[]> {
  const pk = JOBS_TABLE_SCHEMA.partitionKey.name;
  const ids: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await stage.standins.ddb.send(
      new ScanCommand({
        TableName: stage.tableName,
        ProjectionExpression: "#pk",
        FilterExpression: "begins_with(#pk, :video) OR begins_with(#pk, :image)",
        ExpressionAttributeNames: { "#pk": pk },
        ExpressionAttributeValues: { ":video": "vidtsk_", ":image": "imgtsk_" },
        ...(start === undefined ? {} : { ExclusiveStartKey: start }),
      }),
    );
    for (const item of page.Items ?? []) ids.push(String(item[pk]));
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return ids;
}

/** The rehearsal's bill; undefined when it made no job. */
export async function rehearsalBill(stage: Stage): Promise<RehearsalBill | undefined> {
  const ids = await jobIds(stage);
  if (ids.length === 0) return undefined;
  const [job, flow] = await Promise.all([rehearsedJob(stage, ids), rehearsedFlow(stage, ids)]);
  return {
    jobs: ids.length,
    region: PRICES.region,
    pricesReadOn: PRICES.readOn,
    perThousandJobs: billPer1000Jobs(job, flow),
  };
}

/** Two lines for the terminal: the total, and each service that costs anything. */
export function billLines(bill: RehearsalBill): string[] {
  const { lines, totalUsd } = bill.perThousandJobs;
  const services = lines
    .filter((l) => l.usd > 0)
    .map((l) => `${l.service} $${l.usd.toFixed(3)}`)
    .join(", ");
  return [
    `AWS bill of the rehearsal's ${bill.jobs} jobs: $${totalUsd.toFixed(2)} per 1,000 jobs (${bill.region} prices read ${bill.pricesReadOn}; the scenarios' jobs, not a real mix: npm run bench -- --only bill)`,
    `  ${services}`,
  ];
}
