/**
 * Observed generation times per model and duration, as items of the jobs table (no other resource):
 * pk `stats#<model>#<duration_sec | default>`, a sample counter `n` and one counter per histogram
 * bucket (`b<index>`, polling/history.ts). A sample is one UpdateItem of ADDs, atomic on its own, so
 * any number of finishing jobs may record at once and every sample counts. The items carry no
 * gsi1pk, so the job listing never sees them.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { bucketOf, type GenerationHistory } from "../polling/history.ts";
import type { Job } from "./types.ts";

export const GENERATION_STATS_KEY_PREFIX = "stats#";
const BUCKET_ATTRIBUTE = /^b(\d+)$/;

/** The item a job's generation time is filed under: its model and requested duration. */
export function generationStatsKey(job: Pick<Job, "model" | "request">): string {
  const duration = (job.request as { duration_sec?: unknown }).duration_sec;
  return `${GENERATION_STATS_KEY_PREFIX}${job.model}#${typeof duration === "number" ? duration : "default"}`;
}

export class GenerationStatsStore {
  readonly #db: DynamoDBDocumentClient;
  readonly #tableName: string;
  readonly #now: () => Date;

  constructor(db: DynamoDBDocumentClient, tableName: string, options: { now?: () => Date } = {}) {
    this.#db = db;
    this.#tableName = tableName;
    this.#now = options.now ?? (() => new Date());
  }

  /** What has been recorded under `key`; undefined before the first sample. */
  async history(key: string): Promise<GenerationHistory | undefined> {
    const answer = await this.#db.send(new GetCommand({ TableName: this.#tableName, Key: { pk: key } }));
    if (answer.Item === undefined) return undefined;
    const buckets: Record<number, number> = {};
    for (const [name, value] of Object.entries(answer.Item)) {
      const match = BUCKET_ATTRIBUTE.exec(name);
      if (match !== null && typeof value === "number") buckets[Number(match[1])] = value;
    }
    return { samples: typeof answer.Item.n === "number" ? answer.Item.n : 0, buckets };
  }

  /** Adds one generation time (ms) under `key`. */
  async record(key: string, ms: number): Promise<void> {
    await this.#db.send(
      new UpdateCommand({
        TableName: this.#tableName,
        Key: { pk: key },
        UpdateExpression: "ADD #n :one, #b :one SET #u = :now",
        ExpressionAttributeNames: { "#n": "n", "#b": `b${bucketOf(ms)}`, "#u": "updatedAt" },
        ExpressionAttributeValues: { ":one": 1, ":now": this.#now().toISOString() },
      }),
    );
  }
}
