/**
 * A stack killed while dynalite was creating the jobs table leaves the table CREATING on disk, and
 * dynalite's timer that would make it ACTIVE died with the process. The next start must notice and
 * make the table again instead of failing every read with "not found".
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { expect, it } from "vitest";
import { createJobsTableInput } from "@reelay/core/adapters";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../src/aws-clients.ts";
import { LOCAL_TABLE, startStandins } from "../src/aws-standins.ts";

const require = createRequire(import.meta.url);
const dynalite = require("dynalite") as (options: Record<string, unknown>) => Server;

it("a jobs table left CREATING by a crash is made again at the next start, and then takes writes", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "reelay-table-"));
  try {
    // A dynalite whose table would turn ACTIVE only after an hour: as good as killed mid-creation.
    const stuck = dynalite({ path: join(dataDir, "dynamodb"), createTableMs: 3_600_000 });
    await new Promise<void>((resolve) => stuck.listen(0, "127.0.0.1", resolve));
    const endpoint = `http://127.0.0.1:${(stuck.address() as AddressInfo).port}`;
    const client = new DynamoDBClient({
      region: LOCAL_REGION,
      endpoint,
      credentials: LOCAL_CREDENTIALS,
    });
    await client.send(new CreateTableCommand(createJobsTableInput(LOCAL_TABLE)));
    expect(
      (await client.send(new DescribeTableCommand({ TableName: LOCAL_TABLE }))).Table?.TableStatus,
    ).toBe("CREATING");
    client.destroy();
    await new Promise((resolve) => stuck.close(resolve));

    const standins = await startStandins({ dataDir, s3Port: 0 });
    try {
      const described = await standins.ddb.send(
        new DescribeTableCommand({ TableName: standins.tableName }),
      );
      expect(described.Table?.TableStatus).toBe("ACTIVE");
      await standins.ddb.send(
        new PutCommand({
          TableName: standins.tableName,
          Item: { pk: "probe", gsi1pk: "PROBE", gsi1sk: "1" },
        }),
      );
    } finally {
      await standins.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}, 30_000);
