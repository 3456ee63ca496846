/**
 * The dynalite child recycles itself past a bound on its RSS (start.ts says why): at a quiet moment
 * it closes like at a stop and the supervisor starts the next one on the same port. Here the bound
 * is below the fresh RSS and checked every 200 ms, so the child recycles as soon as it is quiet:
 * what was written before is read after, and calls made through the recycles all go through (the
 * client's retries ride out the refused connections), while a refused condition is not retried.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as pause } from "node:timers/promises";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { expect, it } from "vitest";
import { localDynamoClient } from "../src/aws-clients.ts";
import { spawnDynalite } from "../src/dynalite/start.ts";
import { ensureTable } from "../src/dynalite/table.ts";
import { consoleLogger } from "../src/log.ts";

it("a dynalite child past its RSS bound recycles at a quiet moment, keeps its port and data, and no call fails across the recycles", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "reelay-dynalite-recycle-"));
  const lines: string[] = [];
  const dynalite = await spawnDynalite(
    join(dataDir, "dynamodb"),
    "127.0.0.1",
    consoleLogger((line) => lines.push(line)),
    { above: 0.5, checkMs: 200 },
  );
  const ddb = localDynamoClient(`http://127.0.0.1:${dynalite.port}`);
  try {
    await ensureTable(ddb, "recycle");
    await ddb.send(new PutCommand({ TableName: "recycle", Item: { pk: "before", n: 0 } }));
    // Read together: on a slow machine the child may have recycled during the setup above.
    const firstPid = dynalite.pid;
    const firstRestarts = dynalite.restarts;
    for (const end = Date.now() + 20_000; dynalite.restarts === firstRestarts && Date.now() < end; )
      await pause(50);
    expect(dynalite.restarts).toBeGreaterThan(firstRestarts);
    expect(dynalite.pid).not.toBe(firstPid);
    // Calls with quiet gaps between them, until the child has recycled in the gaps at least twice
    // more: on a loaded machine a recycle takes longer, so the count, not a fixed number, ends it.
    const keys: string[] = [];
    for (let n = 1; n <= 20 || (dynalite.restarts < 3 && n <= 200); n++) {
      await ddb.send(new PutCommand({ TableName: "recycle", Item: { pk: `item-${n}`, n } }));
      keys.push(`item-${n}`);
      await pause(n % 2 === 0 ? 300 : 10);
    }
    const read = await Promise.all(
      ["before", ...keys].map(
        async (pk) =>
          (await ddb.send(new GetCommand({ TableName: "recycle", Key: { pk } }))).Item?.pk,
      ),
    );
    expect(read, "every item written across the recycles").toEqual(["before", ...keys]);
    expect(dynalite.restarts, "recycles").toBeGreaterThanOrEqual(3);
    // A client error (a refused condition) is answered at once, never retried. A try sent while
    // the child recycled met a refused connection first (rightly retried): it is tried again.
    let refused: { name?: string; $metadata?: { attempts?: number } } | undefined;
    for (let tries = 0; tries < 10; tries++) {
      const restarts = dynalite.restarts;
      refused = await ddb
        .send(
          new PutCommand({
            TableName: "recycle",
            Item: { pk: "before" },
            ConditionExpression: "attribute_not_exists(pk)",
          }),
        )
        .then(
          () => undefined,
          (error: { name?: string; $metadata?: { attempts?: number } }) => error,
        );
      if (dynalite.restarts === restarts) break;
    }
    expect(refused?.name).toBe("ConditionalCheckFailedException");
    expect(refused?.$metadata?.attempts, "attempts of a refused condition").toBe(1);
    // A recycle is logged as one, not as a crash.
    expect(lines.some((line) => line.includes("recycled itself"))).toBe(true);
    expect(lines.some((line) => line.includes("ended unexpectedly"))).toBe(false);
  } finally {
    ddb.destroy();
    await dynalite.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}, 60_000);
