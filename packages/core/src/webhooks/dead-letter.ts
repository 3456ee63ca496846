/**
 * Where a message goes when a subscriber kept failing: enough to replay it by hand (id, URL, body),
 * never the subscriber's secret. Local: one JSON line per record; AWS: an item in the jobs table.
 */
import { appendFile, mkdir, readFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { dirname } from "node:path";
import { PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

export const DEAD_LETTER_FILE = "webhooks-dead-letter.jsonl";

export interface DeadLetter {
  webhookId: string;
  url: string;
  attempts: number;
  lastError: string;
  failedAt: string;
  body: string;
}

export interface DeadLetterSink {
  record(letter: DeadLetter): Promise<void>;
}

export class JsonlDeadLetters implements DeadLetterSink {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  async record(letter: DeadLetter): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    await appendFile(this.path, `${JSON.stringify(letter)}\n`, "utf8");
  }

  async readAll(): Promise<DeadLetter[]> {
    const text = await readFile(this.path, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return "";
      throw error;
    });
    return text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as DeadLetter);
  }
}

/** Partition-key prefix of dead-letter items (the stack limits the webhook function to it). */
export const DEAD_LETTER_KEY_PREFIX = "webhook-dead#";

/**
 * One item per (message, subscriber) in the jobs table, keyed `webhook-dead#<id>#<url digest>` so a
 * redelivered event overwrites rather than piles up. It has no listing keys, so it never shows among jobs.
 */
export class DynamoDeadLetters implements DeadLetterSink {
  readonly #db: DynamoDBDocumentClient;
  readonly #tableName: string;

  constructor(db: DynamoDBDocumentClient, tableName: string) {
    this.#db = db;
    this.#tableName = tableName;
  }

  async record(letter: DeadLetter): Promise<void> {
    const urlDigest = createHash("sha256").update(letter.url).digest("hex").slice(0, 16);
    await this.#db.send(
      new PutCommand({
        TableName: this.#tableName,
        Item: {
          pk: `${DEAD_LETTER_KEY_PREFIX}${letter.webhookId}#${urlDigest}`,
          type: "webhook-dead-letter",
          ...letter,
        },
      }),
    );
  }
}
