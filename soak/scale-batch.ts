/**
 * The scale runs' batch: one JSONL drop of N prompts into the local stack's inbox, then the batch
 * watched (GET /v1/batches) until it completes. Resolves with its counts and the seconds from the
 * drop to completion.
 */
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { getJson, type TestStack } from "../test/e2e/support/stack.ts";

export interface DroppedBatch {
  id: string;
  counts: Record<string, number>;
  seconds: number;
}

export async function runDroppedBatch(stack: TestStack, jobs: number): Promise<DroppedBatch> {
  const lines = Array.from({ length: jobs }, (_, i) =>
    JSON.stringify({ model: "os-2", prompt: `a lighthouse at dusk, take ${i}`, duration_sec: 4 }),
  );
  const began = Date.now();
  await stack.s3.send(
    new PutObjectCommand({
      Bucket: stack.bucket,
      Key: "inbox/scale.jsonl",
      Body: `${lines.join("\n")}\n`,
    }),
  );
  let batch: { id: string; status: string; counts: Record<string, number> } | undefined;
  while (batch?.status !== "completed") {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const { body } = await getJson(`${stack.url}/v1/batches`, stack.apiKey);
    const id = (body.data as { id: string }[])[0]?.id;
    if (id !== undefined)
      batch = (await getJson(`${stack.url}/v1/batches/${id}`, stack.apiKey)).body;
  }
  return { id: batch.id, counts: batch.counts, seconds: (Date.now() - began) / 1000 };
}
