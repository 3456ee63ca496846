/**
 * Budgets per API key and one for the deployment (REELAY_BUDGET): an amount of money (under the
 * price table) or of units (video seconds, images) per day, month or in total. A job reserves its
 * estimate with one conditional write on each ledger item for the period, so parallel creates can
 * never reserve past a budget (no transactions needed); a job made through the API reserves at
 * create, a batch's or a drop's at admission. A reservation is settled to what the job cost when
 * it ends.
 */
import type { BudgetLedgerPort } from "../../usecases/ports.ts";
import type { BudgetClaim } from "../../domain/money/budget-schema.ts";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { isReelayError, ReelayError, shownInput } from "../../domain/errors.ts";
import { userLane, userOfLane } from "../../domain/keys/end-users.ts";
import type { Metrics } from "../../usecases/ports.ts";
import type { Budget } from "../../domain/money/budget-schema.ts";
import type { Job } from "../../domain/jobs/types.ts";
import { chargedOf, costMicrosOf } from "../../domain/money/charge.ts";
import type { Estimate, Reservation } from "../../domain/money/types.ts";
import { fromMicros } from "../../domain/money/prices.ts";
import { DEPLOYMENT_OWNER, ledgerOf } from "../../domain/money/ledger.ts";
import { Table } from "./table-ops.ts";

const MICROS = 1_000_000;

/** The amount a job reserves: its estimated cost, or its units (an unpriced job costs 0 money). */
function amountOf(budget: Budget, estimate: Estimate): number {
  return budget.unit === "units" ? estimate.usage.quantity * MICROS : (estimate.costMicros ?? 0);
}

export interface BudgetLedgerOptions {
  /** The deployment's budget (REELAY_BUDGET), over every job whoever made it. */
  deployment?: Budget | undefined;
  /** A stored key's budget by its id, read at admission for jobs queued without a reservation. */
  keyBudgetOf?: (keyId: string) => Promise<Budget | undefined>;
  /** A stored key's budget for each of its end users (user_limits.budget), read likewise. */
  userBudgetOf?: (keyId: string) => Promise<Budget | undefined>;
  /** Counts each refusal by the budget that refused (key, deployment). */
  metrics?: Metrics;
}

export class BudgetLedger implements BudgetLedgerPort {
  readonly #table: Table;
  readonly #options: BudgetLedgerOptions;

  constructor(db: DynamoDBDocumentClient, tableName: string, options: BudgetLedgerOptions = {}) {
    this.#table = new Table(db, tableName);
    this.#options = options;
  }

  get deployment(): Budget | undefined {
    return this.#options.deployment;
  }

  /** The budgets over a job made by `keyId` whose budget (if any) is already known. */
  claimsFor(keyId: string | undefined, keyBudget: Budget | undefined): BudgetClaim[] {
    const claims: BudgetClaim[] = [];
    if (keyId !== undefined && keyBudget !== undefined)
      claims.push({ owner: keyId, budget: keyBudget });
    const deployment = this.#options.deployment;
    if (deployment !== undefined) claims.push({ owner: DEPLOYMENT_OWNER, budget: deployment });
    return claims;
  }

  /** The budgets over a queued job, its key's read now (batch and drop jobs reserve at admission). */
  async claimsOf(job: Pick<Job, "source" | "user">): Promise<BudgetClaim[]> {
    const keyId = job.source.apiKeyId;
    const keyBudget =
      keyId === undefined
        ? undefined
        : await this.#options.keyBudgetOf?.(keyId).catch(() => undefined);
    const userClaim = await this.userClaimOf(keyId, job.user);
    return [...this.claimsFor(keyId, keyBudget), ...(userClaim === undefined ? [] : [userClaim])];
  }

  /** The end user's own ledger (owner `<key id>/user/<user>`) under the key's user_limits.budget. */
  async userClaimOf(
    keyId: string | undefined,
    user: string | undefined,
  ): Promise<BudgetClaim | undefined> {
    if (keyId === undefined || user === undefined) return undefined;
    const budget = await this.#options.userBudgetOf?.(keyId).catch(() => undefined);
    return budget === undefined ? undefined : { owner: userLane(keyId, user), budget };
  }

  /**
   * Reserves the job's estimate from every claim, or none: a refusal gives back what the earlier
   * claims reserved and throws 402 budget_exceeded naming what remains of the budget that refused.
   */
  async reserve(claims: BudgetClaim[], estimate: Estimate, now: Date): Promise<Reservation[]> {
    const reserved: Reservation[] = [];
    try {
      for (const claim of claims) reserved.push(await this.#reserveOne(claim, estimate, now));
      return reserved;
    } catch (error) {
      await this.release(reserved);
      // Both refusals come through here: a create answered 402 and a job failed at admission.
      if (isReelayError(error, "budget_exceeded")) {
        const { budget } = (error.details ?? {}) as { budget?: string };
        this.#options.metrics?.count("reelay_budget_refusals_total", { budget: budget ?? "key" });
      }
      throw error;
    }
  }

  async #reserveOne(claim: BudgetClaim, estimate: Estimate, now: Date): Promise<Reservation> {
    const { budget } = claim;
    const ledger = ledgerOf(claim.owner, budget, now);
    const micros = amountOf(budget, estimate);
    const limit = Math.round(budget.amount * MICROS);
    if (micros > limit) throw await this.#refusal(ledger, claim, micros);
    const reserved = await this.#table.conditionalUpdate(ledger, {
      update: "ADD reserved :amount",
      condition: "attribute_not_exists(reserved) OR reserved <= :max",
      values: { ":amount": micros, ":max": limit - micros },
    });
    if (!reserved) throw await this.#refusal(ledger, claim, micros);
    return { ledger, micros, unit: budget.unit };
  }

  async #refusal(ledger: string, claim: BudgetClaim, micros: number): Promise<ReelayError> {
    const { budget } = claim;
    const used = await this.used(ledger);
    const remaining = fromMicros(Math.max(0, Math.round(budget.amount * MICROS) - used));
    const what = budget.unit === "units" ? "units" : "of the currency";
    const user = userOfLane(claim.owner);
    const whose =
      claim.owner === DEPLOYMENT_OWNER
        ? "the deployment's"
        : user === undefined
          ? "the key's"
          : `the end user ${shownInput(user, 40)}'s (user_limits)`;
    return new ReelayError(
      "budget_exceeded",
      `This job needs ${fromMicros(micros)} ${what}; ${whose} ${budget.period} budget has ${remaining} left.`,
      {
        status: 402,
        details: {
          remaining,
          needed: fromMicros(micros),
          period: budget.period,
          unit: budget.unit,
          budget:
            claim.owner === DEPLOYMENT_OWNER ? "deployment" : user === undefined ? "key" : "user",
        },
      },
    );
  }

  /** What the ledger holds: settled spend plus open reservations, in millionths. */
  async used(ledger: string): Promise<number> {
    const item = await this.#table.get(ledger, { consistent: true });
    return Number(item?.reserved ?? 0);
  }

  /** Gives reservations back whole (the job was never made). */
  async release(reservations: readonly Reservation[]): Promise<void> {
    for (const reservation of reservations)
      await this.#adjust(reservation.ledger, -reservation.micros);
  }

  /**
   * Settles an ended job's reservations to what it cost: money to its cost, units to its usage when
   * charged; nothing was spent when nothing was charged.
   */
  async settle(job: Job): Promise<void> {
    const charged = chargedOf(job);
    for (const reservation of job.reservations ?? []) {
      const actual =
        charged === false
          ? 0
          : reservation.unit === "units"
            ? reservation.micros
            : (costMicrosOf(job) ?? 0);
      await this.#adjust(reservation.ledger, actual - reservation.micros);
    }
  }

  async #adjust(ledger: string, delta: number): Promise<void> {
    if (delta === 0) return;
    await this.#table.update(ledger, {
      update: "ADD reserved :delta",
      values: { ":delta": delta },
    });
  }
}
