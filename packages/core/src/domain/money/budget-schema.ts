/**
 * What a budget is: an amount of money (under the price table) or of units (video seconds, images)
 * per day, month or in total. Read from a key's create or update, and from REELAY_BUDGET.
 */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all of it).
import * as z from "zod";
import { ReelayError } from "../errors.ts";
import { onFirstUse } from "../on-first-use.ts";

/** A budget's schema, built at its first use (only a key's budget or REELAY_BUDGET needs it). */
const budgetSchema = onFirstUse(() => {
  return z
    .object({
      // Counted in millionths: one millionth up to far above any real budget (DynamoDB stores both).
      amount: z.number().finite().min(0.000001).max(1e12),
      unit: z.enum(["currency", "units"]).default("currency"),
      period: z.enum(["day", "month", "total"]).default("month"),
    })
    .strict();
});
export type Budget = z.infer<ReturnType<typeof budgetSchema>>;

const SHAPE = "a budget is {amount, unit: currency|units, period: day|month|total}";

/** Checks a budget; a problem is a ReelayError of `code` naming its path under `base`. */
export function parseBudget(
  raw: unknown,
  base: string,
  code: "invalid_request" | "invalid_config",
): Budget {
  const parsed = budgetSchema().safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  // A field a budget does not have is named, and on the API refused as unknown_field: never dropped.
  if (issue?.code === "unrecognized_keys" && code === "invalid_request") {
    const path = [base, ...issue.path, issue.keys[0]].join(".");
    throw new ReelayError("unknown_field", `${path} is not a field of a budget (${SHAPE}).`, {
      status: 400,
      path,
    });
  }
  const path = [base, ...(issue?.path ?? [])].join(".");
  return fail(code, `${path}: ${issue?.message ?? "not a budget"} (${SHAPE}).`, path);
}

function fail(code: "invalid_request" | "invalid_config", message: string, path: string): never {
  throw new ReelayError(
    code,
    message,
    code === "invalid_request" ? { status: 400, path } : { path },
  );
}

/** REELAY_BUDGET's text: JSON of one budget. */
export function parseBudgetText(text: string, origin: string): Budget {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return fail(
      "invalid_config",
      `${origin} is not valid JSON (${String(error)}).`,
      "REELAY_BUDGET",
    );
  }
  return parseBudget(json, "REELAY_BUDGET", "invalid_config");
}

/** A budget that applies to a job: the key's own, or the deployment's. */
export interface BudgetClaim {
  owner: string;
  budget: Budget;
}
