/**
 * The reuse index: one item per fingerprint and project (item-keys.ts `fp#`), naming the job that
 * leads the fingerprint's upstream task and the newest one that succeeded. Each write is
 * conditional on its own attributes, so they never undo each other:
 *
 *   submit A (reuse)  read: nothing ──claim leader=A if none──> A makes the task
 *   submit B (reuse)  read: leader A, A running ──> B follows A (no write)
 *   submit C (reuse)  read: nothing ──claim leader=C if none──> refused: A got there first; read again
 *   Finish A          ──succeeded=A at T unless later──> later submits reuse A while T is recent
 *
 * A leader that ended is replaced by the next claim (`leader = :expected`), so a crashed or failed
 * leader never blocks the fingerprint; one refused before its record was written gives the lead up.
 * A claim is made before the leader's record (the record must name no source), so for a moment the
 * leader has no record: readers follow it anyway while its claim is recent (route-reuse.ts). The
 * items carry no gsi1pk: the job listing never sees them.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { ReuseEntry, ReuseIndexPort } from "../../usecases/ports.ts";
import { reuseKey } from "./item-keys.ts";
import { Table } from "./table-ops.ts";

export class ReuseIndex implements ReuseIndexPort {
  readonly #table: Table;

  constructor(db: DynamoDBDocumentClient, tableName: string) {
    this.#table = new Table(db, tableName);
  }

  async read(scope: string, fingerprint: string): Promise<ReuseEntry | undefined> {
    const item = await this.#table.get(reuseKey(scope, fingerprint), { consistent: true });
    if (item === undefined) return undefined;
    const { leader, leaderAt, succeededId, succeededAt } = item;
    return {
      ...(typeof leader === "string" && typeof leaderAt === "string"
        ? { leader: { jobId: leader, at: leaderAt } }
        : {}),
      ...(typeof succeededId === "string" && typeof succeededAt === "string"
        ? { succeeded: { jobId: succeededId, at: succeededAt } }
        : {}),
    };
  }

  claim(
    scope: string,
    fingerprint: string,
    claim: { jobId: string; at: string },
    expected?: string,
  ): Promise<boolean> {
    return this.#table.conditionalUpdate(reuseKey(scope, fingerprint), {
      update: "SET leader = :job, leaderAt = :at",
      condition: expected === undefined ? "attribute_not_exists(leader)" : "leader = :expected",
      values: {
        ":job": claim.jobId,
        ":at": claim.at,
        ...(expected === undefined ? {} : { ":expected": expected }),
      },
    });
  }

  async release(scope: string, fingerprint: string, jobId: string): Promise<void> {
    await this.#table.conditionalUpdate(reuseKey(scope, fingerprint), {
      update: "REMOVE leader, leaderAt",
      condition: "leader = :job",
      values: { ":job": jobId },
    });
  }

  async succeeded(scope: string, fingerprint: string, jobId: string, at: string): Promise<void> {
    // Refused when a later success is recorded already: that one stays the newest.
    await this.#table.conditionalUpdate(reuseKey(scope, fingerprint), {
      update: "SET succeededId = :job, succeededAt = :at",
      condition: "attribute_not_exists(succeededAt) OR succeededAt < :at",
      values: { ":job": jobId, ":at": at },
    });
  }
}
