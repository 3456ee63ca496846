/** The bundled simulator's own task for a job, found the way the upstream knows it: reelay sends the job id as the idempotency key. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { SimTask } from "@reelay/simulator/types";
import { SIMULATOR_STATE_FILE } from "@reelay/local/stack";
import type { LocalStack } from "@reelay/local/stack";

export async function upstreamTaskOf(
  stack: Pick<LocalStack, "dataDir" | "simulator">,
  jobId: string,
): Promise<SimTask> {
  const lines = (await readFile(join(stack.dataDir, SIMULATOR_STATE_FILE), "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "");
  const stored = lines
    .map((line) => JSON.parse(line) as { id: string; idempotencyKey: string | null })
    .find((task) => task.idempotencyKey === jobId);
  const task = stored === undefined ? undefined : stack.simulator?.task(stored.id);
  if (task === undefined) throw new Error(`the simulator made no task for ${jobId}`);
  return task;
}
