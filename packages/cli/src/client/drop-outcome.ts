/**
 * What became of a dropped prompt file. The stack derives each job id from bucket, key, etag and
 * entry, so the client can compute the ids it expects and ask for exactly those: a job made by an
 * earlier version of the same file is never mistaken for a new one, and dropping the same file again
 * reports the jobs it already made at once. A rejected file is moved out of `inbox/` after its error
 * file is written, so "gone from inbox and an error file present" is this drop's rejection.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { batchIdFrom, type DropEntry, entryLocation, parseDropFile } from "@reelay/core/usecases";
import {
  jobIdFrom,
  type ErrorCode,
  isReelayError,
  OBJECT_VERSION_FIELD,
  readableVersion,
} from "@reelay/core/domain";
import type { ReelayApiClient } from "./api.ts";
import type { Inbox } from "./inbox.ts";

const POLL_MS = 250;

export interface DropReport {
  key: string;
  /** The batch a file of several requests became. */
  batchId?: string;
  status: "accepted" | "rejected" | "partly_rejected" | "pending";
  jobs: { id: string; status: string; entry: string }[];
  errors: { where: string; path: string; code: string; message: string }[];
  rejectedKey?: string;
  message?: string;
}

export interface DropWatch {
  client: ReelayApiClient;
  inbox: Inbox;
  key: string;
  etag: string;
  /** The file's text, to know its entries (lines, or items of `requests`). */
  text: string;
  defaultModel: string;
  waitMs: number;
}

interface ErrorFile {
  message?: string;
  errors?: { where?: string; path?: string; code?: string; message?: string }[];
  accepted_jobs?: { id: string; entry: string }[];
  /** Absent in files written by 0.1.0 (version 1). */
  schema_version?: number;
}

/**
 * The ids the stack gives a file's jobs: from the file and entry for a single request; from the
 * batch (itself from the file) and the line when the file holds several, as a batch.
 */
function expectedIds(watch: DropWatch, entries: DropEntry[], batchId: string | undefined) {
  return entries.map((entry) => ({
    label: entryLocation(entry),
    // The kind is the stack's verdict (its catalog may differ from ours): try both id forms.
    ids: (["video", "image"] as const).map((kind) =>
      batchId === undefined
        ? jobIdFrom(kind, [
            watch.inbox.bucket,
            watch.key,
            watch.etag,
            entry.line ?? entry.index ?? 0,
          ])
        : jobIdFrom(kind, [batchId, entry.line ?? (entry.index ?? 0) + 1]),
    ),
  }));
}

export async function awaitDropOutcome(watch: DropWatch): Promise<DropReport> {
  const { client, inbox, key } = watch;
  const parsed = parseDropFile(key, watch.text, { defaultModel: watch.defaultModel }).entries;
  const batchId = parsed.length > 1 ? batchIdFrom([inbox.bucket, key, watch.etag]) : undefined;
  const batch = batchId === undefined ? {} : { batchId };
  const entries = expectedIds(watch, parsed, batchId);
  const found = new Map<string, DropReport["jobs"][number]>();
  const deadline = Date.now() + watch.waitMs;
  const rejectedKey = `rejected/${key.slice(key.indexOf("/") + 1)}`;

  for (;;) {
    for (const entry of entries) {
      if (found.has(entry.label)) continue;
      for (const id of entry.ids) {
        const job = await client.getJob(id).catch((error: unknown) => {
          if (isReelayError(error) && error.status === 404) return undefined;
          throw error;
        });
        if (job !== undefined)
          found.set(entry.label, { id: job.id, status: job.status, entry: entry.label });
      }
    }
    const jobs = [...found.values()];
    if (entries.length > 0 && found.size === entries.length)
      return { key, ...batch, status: "accepted", jobs, errors: [] };

    if (!(await inbox.exists(key))) {
      const errorFile = (await inbox.readJson(`${rejectedKey}.error.json`)) as
        | ErrorFile
        | undefined;
      if (errorFile !== undefined) {
        readableVersion(
          errorFile[OBJECT_VERSION_FIELD],
          `The file ${rejectedKey}.error.json`,
          OBJECT_VERSION_FIELD,
        );
        const errors = (errorFile.errors ?? []).map((error) => ({
          where: error.where ?? error.path ?? "(file)",
          path: error.path ?? "",
          code: error.code ?? ("rejected" satisfies ErrorCode),
          message: error.message ?? "",
        }));
        const accepted = errorFile.accepted_jobs ?? [];
        return {
          key,
          status: accepted.length > 0 ? "partly_rejected" : "rejected",
          jobs: accepted.map(
            (job) => found.get(job.entry) ?? { id: job.id, status: "queued", entry: job.entry },
          ),
          errors,
          rejectedKey,
          message: errorFile.message ?? "rejected",
        };
      }
    }
    if (Date.now() >= deadline) {
      return {
        key,
        status: "pending",
        jobs,
        errors: [],
        message: `no answer from the stack within ${watch.waitMs / 1000} s; check \`reelay jobs\` and the stack's log`,
      };
    }
    await sleep(POLL_MS);
  }
}
