/**
 * Budgets per API key: an amount of money (under the price table) or of units (video seconds,
 * images) per day, month or in total. A create reserves its estimate with one conditional write on
 * the key's ledger item for the period, so parallel creates can never reserve past the budget
 * (no transactions needed); the reservation is settled to what the job cost when it ends.
 */
import { isConditionFailure } from "../storage/conditions.ts";
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all of it).
import * as z from "zod";
import { ReelayError } from "../errors.ts";
import type { Job } from "../jobs/types.ts";
import { chargedOf, costMicrosOf } from "./charge.ts";
import type { Estimate, Reservation } from "./types.ts";
import { fromMicros } from "./prices.ts";

export const BudgetSchema = z
  .object({
    // Far above any real budget, and within what DynamoDB stores as a number in millionths.
    amount: z.number().finite().positive().max(1e12),
    unit: z.enum(["currency", "units"]).default("currency"),
    period: z.enum(["day", "month", "total"]).default("month"),
  })
  .strict();
export type Budget = z.infer<typeof BudgetSchema>;

const MICROS = 1_000_000;
/** Every key's ledger items start with this (`budget#<keyId>#<period>`). */
export const BUDGET_KEY_PREFIX = "budget#";

function periodOf(period: Budget["period"], now: Date): string {
  const iso = now.toISOString();
  return period === "day" ? iso.slice(0, 10) : period === "month" ? iso.slice(0, 7) : "all";
}

/** The amount a job reserves: its estimated cost, or its units (an unpriced job costs 0 money). */
function amountOf(budget: Budget, estimate: Estimate): number {
  return budget.unit === "units" ? estimate.usage.quantity * MICROS : (estimate.costMicros ?? 0);
}

export class BudgetLedger {
  readonly #db: DynamoDBDocumentClient;
  readonly #table: string;

  constructor(db: DynamoDBDocumentClient, tableName: string) {
    this.#db = db;
    this.#table = tableName;
  }

  static ledgerOf(keyId: string, budget: Budget, now: Date): string {
    return `${BUDGET_KEY_PREFIX}${keyId}#${periodOf(budget.period, now)}`;
  }

  /** Reserves the job's estimate, or refuses with 402 budget_exceeded naming what remains. */
  async reserve(
    keyId: string,
    budget: Budget,
    estimate: Estimate,
    now: Date,
  ): Promise<Reservation> {
    const ledger = BudgetLedger.ledgerOf(keyId, budget, now);
    const micros = amountOf(budget, estimate);
    const limit = Math.round(budget.amount * MICROS);
    if (micros > limit) throw await this.#refusal(ledger, budget, micros);
    try {
      await this.#db.send(
        new UpdateCommand({
          TableName: this.#table,
          Key: { pk: ledger },
          UpdateExpression: "ADD reserved :amount",
          ConditionExpression: "attribute_not_exists(reserved) OR reserved <= :max",
          ExpressionAttributeValues: { ":amount": micros, ":max": limit - micros },
        }),
      );
      return { ledger, micros, unit: budget.unit };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      throw await this.#refusal(ledger, budget, micros);
    }
  }

  async #refusal(ledger: string, budget: Budget, micros: number): Promise<ReelayError> {
    const used = await this.used(ledger);
    const remaining = fromMicros(Math.max(0, Math.round(budget.amount * MICROS) - used));
    const what = budget.unit === "units" ? "units" : "of the currency";
    return new ReelayError(
      "budget_exceeded",
      `This job needs ${fromMicros(micros)} ${what}; the key's ${budget.period} budget has ${remaining} left.`,
      { status: 402, details: { remaining, needed: fromMicros(micros), period: budget.period } },
    );
  }

  /** What the ledger holds: settled spend plus open reservations, in millionths. */
  async used(ledger: string): Promise<number> {
    const answer = await this.#db.send(
      new GetCommand({ TableName: this.#table, Key: { pk: ledger }, ConsistentRead: true }),
    );
    return Number(answer.Item?.reserved ?? 0);
  }

  /** Gives back a reservation whole (the job was never made). */
  async release(reservation: Reservation): Promise<void> {
    await this.#adjust(reservation.ledger, -reservation.micros);
  }

  /**
   * Settles an ended job's reservation to what it cost: money to its cost, units to its usage when
   * charged; nothing was spent when nothing was charged.
   */
  async settle(job: Job): Promise<void> {
    const reservation = job.reservation;
    if (reservation === undefined) return;
    const charged = chargedOf(job);
    const actual =
      charged === false
        ? 0
        : reservation.unit === "units"
          ? reservation.micros
          : (costMicrosOf(job) ?? 0);
    await this.#adjust(reservation.ledger, actual - reservation.micros);
  }

  async #adjust(ledger: string, delta: number): Promise<void> {
    if (delta === 0) return;
    await this.#db.send(
      new UpdateCommand({
        TableName: this.#table,
        Key: { pk: ledger },
        UpdateExpression: "ADD reserved :delta",
        ExpressionAttributeValues: { ":delta": delta },
      }),
    );
  }
}
