/**
 * `npm run scale -- [--jobs 300] [--cap 20] [--task-s 20] [--concurrency N] [--time-scale 1]`:
 * issue 12's acceptance run. One JSONL drop of N prompts into the local stack's inbox, against the
 * bundled simulator allowing `cap` tasks in flight per API key with tasks of `task-s` seconds, the
 * admission limit learned (or REELAY_UPSTREAM_CONCURRENCY=--concurrency). Prints one line: the
 * batch's time against the cap's ideal, the 429s per create and the peak in flight. Exit 1 when a
 * job did not succeed, the upstream saw more than the cap, or 429s exceeded 10% of creates (0 when
 * configured); the time ratio is printed, not judged (the machine is shared).
 */
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { parseArgs } from "node:util";
import { getJson, startTestStack } from "../test/e2e/support/stack.ts";

const { values } = parseArgs({
  options: {
    jobs: { type: "string", default: "300" },
    cap: { type: "string", default: "20" },
    "task-s": { type: "string", default: "20" },
    concurrency: { type: "string" },
    "time-scale": { type: "string", default: "1" },
  },
});
const jobs = Number(values.jobs);
const cap = Number(values.cap);
const taskMs = Number(values["task-s"]) * 1000;
const timeScale = Number(values["time-scale"]);
for (const [name, n] of Object.entries({ jobs, cap, taskMs, timeScale })) {
  if (!(n > 0)) {
    console.error(`scale: ${name} must be a positive number`);
    process.exit(2);
  }
}

const env: Record<string, string> =
  values.concurrency === undefined ? {} : { REELAY_UPSTREAM_CONCURRENCY: values.concurrency };
const stack = await startTestStack(env, { maxConcurrent: cap, generationMs: taskMs, timeScale });
try {
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
  const seconds = (Date.now() - began) / 1000;
  const idealS = (Math.ceil(jobs / cap) * taskMs * timeScale) / 1000;
  const c = stack.simulator!.counters();
  const share = c.limited / c.creates;
  console.log(
    `scale: ${jobs} jobs (one drop), cap ${cap}, ${taskMs / 1000} s tasks x${timeScale}, limit ${values.concurrency ?? "learned"}: ` +
      `${batch.counts.succeeded} succeeded in ${seconds.toFixed(1)} s, ideal ${idealS} s, ratio ${(seconds / idealS).toFixed(2)}; ` +
      `${c.limited} 429s of ${c.creates} creates (${(100 * share).toFixed(1)}%); peak ${c.peakInFlight} in flight`,
  );
  const allowed = values.concurrency === undefined ? 0.1 : 0;
  process.exitCode =
    batch.counts.succeeded === jobs && c.peakInFlight <= cap && share <= allowed ? 0 : 1;
} finally {
  await stack.dispose();
}
