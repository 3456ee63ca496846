/**
 * `reelay keys create [--name N] [--budget N [--period day|month|total] [--units]] | list |
 * revoke ID` [--json]: API keys, managed through the API with the deployment's own (admin) key. `create` prints the key once; reelay keeps only its sha256.
 */
import { table } from "../client/format.ts";
import { openSession, reportFailures } from "../client/session.ts";
import type { ApiKeyView } from "../client/api.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

const USAGE =
  "use `reelay keys create [--name N] [--budget N [--period day|month|total] [--units]]`, `reelay keys list` or `reelay keys revoke KEY_ID`.";

function rows(keys: readonly ApiKeyView[]): string[][] {
  return [
    ["ID", "NAME", "KEY", "CREATED", "REVOKED", "BUDGET"],
    ...keys.map((key) => [
      key.id,
      key.name || "-",
      `${key.hint}…`,
      key.createdAt,
      key.revokedAt ?? "-",
      key.budget === undefined
        ? "-"
        : `${key.budget.used ?? 0}/${key.budget.amount}${key.budget.unit === "units" ? " units" : ""} per ${key.budget.period}`,
    ]),
  ];
}

const PERIODS = ["day", "month", "total"];

function readBudget(values: { budget?: string; period?: string; units?: boolean }) {
  if (values.budget === undefined) {
    if (values.period !== undefined || values.units === true)
      throw new UsageError("--period and --units go with --budget.");
    return undefined;
  }
  const amount = Number(values.budget);
  if (!(amount > 0))
    throw new UsageError(`--budget must be a positive number, got "${values.budget}".`);
  const period = values.period ?? "month";
  if (!PERIODS.includes(period))
    throw new UsageError(`--period must be one of ${PERIODS.join(", ")}, got "${period}".`);
  return {
    amount,
    unit: values.units === true ? ("units" as const) : ("currency" as const),
    period,
  };
}

export async function runKeys(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: {
      name: { type: "string" },
      budget: { type: "string" },
      period: { type: "string" },
      units: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
    },
  });
  const budget = readBudget(values);
  const [action, ...rest] = positionals;
  const wantsId = action === "revoke";
  if (action === undefined || !["create", "list", "revoke"].includes(action))
    throw new UsageError(USAGE);
  if (rest.length !== (wantsId ? 1 : 0)) throw new UsageError(USAGE);
  if ((values.name !== undefined || budget !== undefined) && action !== "create")
    throw new UsageError("--name and --budget go with `reelay keys create`.");
  return reportFailures(io, "keys", values.json, async () => {
    const { client } = await openSession();
    if (action === "create") {
      const created = await client.createKey(values.name ?? "", budget);
      io.stdout(values.json ? `${JSON.stringify(created)}\n` : `${created.key}\n`);
      if (!values.json)
        io.stderr(
          `created ${created.id}${created.name ? ` (${created.name})` : ""}; the key is shown only this once.\n`,
        );
      return 0;
    }
    if (action === "list") {
      const keys = await client.listKeys();
      io.stdout(
        values.json
          ? `${JSON.stringify({ data: keys })}\n`
          : keys.length === 0
            ? "no keys yet\n"
            : table(rows(keys)),
      );
      return 0;
    }
    const revoked = await client.revokeKey(rest[0] as string);
    io.stdout(
      values.json
        ? `${JSON.stringify(revoked)}\n`
        : `revoked ${revoked.id} at ${revoked.revokedAt}\n`,
    );
    return 0;
  });
}
