/**
 * `reelay keys create [--name N] [--scopes read,write,webhooks,admin] [--project P] [--limits rate=5,burst=5,max_queued=20,max_in_flight=4] [--expires 30d|ISO] [--budget N [--period day|month|total] [--units]] [--on-sunset refuse|successor] | list |
 * budget ID N|none [--period P] [--units] | limits ID rate=5,max_queued=20|none | rotate-secret ID | revoke ID` [--json]: API keys, managed through the API with the deployment's own (admin) key. `create` prints the key once; reelay keeps only its sha256.
 */
import { ON_SUNSET_CHOICES } from "@reelay/core/domain";
import { table } from "../client/format.ts";
import { expiresAtOf } from "./expires.ts";
import { openSession, reportFailures } from "../client/session.ts";
import type { ApiKeyView, KeyBudget, ReelayApiClient } from "../client/api.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

const USAGE =
  "use `reelay keys create [--name N] [--scopes read,write,webhooks,admin] [--project P] [--limits rate=5,burst=5,max_queued=20] [--expires 30d] [--budget N [--period day|month|total] [--units]] [--on-sunset refuse|successor]`, `reelay keys list`, `reelay keys budget KEY_ID N|none [--period P] [--units]`, `reelay keys limits KEY_ID rate=5,max_queued=20|none`, `reelay keys rotate-secret KEY_ID` or `reelay keys revoke KEY_ID`.";

function rows(keys: readonly ApiKeyView[]): string[][] {
  return [
    ["ID", "NAME", "KEY", "CREATED", "REVOKED", "EXPIRES", "LAST USED", "BUDGET"],
    ...keys.map((key) => [
      key.id,
      key.name || "-",
      `${key.hint}…`,
      key.createdAt,
      key.revokedAt ?? "-",
      key.expires_at ?? "-",
      key.last_used_at ?? "-",
      budgetText(key),
    ]),
  ];
}

function budgetText(key: ApiKeyView): string {
  const { budget } = key;
  if (budget === undefined) return "-";
  const units = budget.unit === "units" ? " units" : "";
  return `${budget.used ?? 0}/${budget.amount}${units} per ${budget.period}`;
}

const PERIODS = ["day", "month", "total"];

/** A budget from `amount` and the flags; `none` (for `keys budget`) removes one. */
function budgetOf(amountText: string, values: { period?: string; units?: boolean }): KeyBudget {
  const amount = Number(amountText);
  if (!(amount > 0))
    throw new UsageError(`the budget must be a positive number, got "${amountText}".`);
  const period = values.period ?? "month";
  if (!PERIODS.includes(period))
    throw new UsageError(`--period must be one of ${PERIODS.join(", ")}, got "${period}".`);
  return {
    amount,
    unit: values.units === true ? "units" : "currency",
    period: period as KeyBudget["period"],
  };
}

/**
 * `--limits rate=5,burst=5,max_queued=20,max_in_flight=4` (`none` for no limit over the
 * deployment's default): the server checks the names and values, an unknown one is its 400.
 */
function limitsOf(text: string, what = "--limits"): Record<string, number | null> {
  const limits: Record<string, number | null> = {};
  for (const pair of text.split(",")) {
    const [name, value, ...extra] = pair.split("=").map((part) => part.trim());
    const number = Number(value);
    if (!name || value === undefined || extra.length > 0 || (value !== "none" && !(number > 0)))
      throw new UsageError(
        `${what} takes name=value pairs (rate, burst, max_queued, max_in_flight; a positive number or none), got "${pair}".`,
      );
    limits[name] = value === "none" ? null : number;
  }
  return limits;
}

interface KeysValues {
  name?: string;
  scopes?: string;
  project?: string;
  limits?: string;
  expires?: string;
  budget?: string;
  period?: string;
  units?: boolean;
  "on-sunset"?: string;
  json: boolean;
}

/** Every flag of an action; create takes them all. */
const FLAGS = [
  "name",
  "scopes",
  "project",
  "limits",
  "expires",
  "budget",
  "period",
  "units",
  "on-sunset",
] as const satisfies (keyof KeysValues)[];

/** The positionals each action takes, and which flags go with it. */
const ACTIONS: Record<string, { ids: number; flags: (keyof KeysValues)[] }> = {
  create: { ids: 0, flags: [...FLAGS] },
  list: { ids: 0, flags: [] },
  budget: { ids: 2, flags: ["period", "units"] },
  limits: { ids: 2, flags: [] },
  "rotate-secret": { ids: 1, flags: [] },
  revoke: { ids: 1, flags: [] },
};

function checkArgs(action: string | undefined, rest: string[], values: KeysValues): string {
  const spec = action === undefined ? undefined : ACTIONS[action];
  if (action === undefined || spec === undefined || rest.length !== spec.ids)
    throw new UsageError(USAGE);
  for (const flag of FLAGS) {
    const given = flag === "units" ? values.units === true : values[flag] !== undefined;
    if (given && !spec.flags.includes(flag))
      throw new UsageError(`--${flag} does not go with \`reelay keys ${action}\`.`);
  }
  // A malformed --limits or --on-sunset is a usage error before anything is sent.
  if (values.limits !== undefined) limitsOf(values.limits);
  const onSunset = values["on-sunset"];
  if (onSunset !== undefined && !(ON_SUNSET_CHOICES as readonly string[]).includes(onSunset))
    throw new UsageError(
      `--on-sunset must be one of ${ON_SUNSET_CHOICES.join(", ")}, got "${onSunset}".`,
    );
  const budgetFlags = values.period !== undefined || values.units === true;
  if (action === "create" && values.budget === undefined && budgetFlags)
    throw new UsageError("--period and --units go with --budget.");
  return action;
}

function printKey(io: Io, json: boolean, key: ApiKeyView, text: string): void {
  io.stdout(json ? `${JSON.stringify(key)}\n` : `${text}\n`);
}

type Action = (
  client: ReelayApiClient,
  rest: string[],
  values: KeysValues,
  io: Io,
) => Promise<void>;

const RUN: Record<string, Action> = {
  async create(client, _rest, values, io) {
    const budget = values.budget === undefined ? undefined : budgetOf(values.budget, values);
    // The server checks each scope; an unknown one is its 400 naming it.
    const scopes = values.scopes?.split(",").map((scope) => scope.trim());
    const created = await client.createKey(values.name ?? "", budget, {
      ...(scopes === undefined ? {} : { scopes }),
      ...(values.project === undefined ? {} : { project: values.project }),
      ...(values.limits === undefined ? {} : { limits: limitsOf(values.limits) }),
      ...(values.expires === undefined
        ? {}
        : { expires_at: expiresAtOf(values.expires, new Date()) }),
      ...(values["on-sunset"] === undefined ? {} : { on_sunset: values["on-sunset"] }),
    });
    printKey(io, values.json, created, created.key);
    if (!values.json)
      io.stderr(
        `created ${created.id}${created.name ? ` (${created.name})` : ""}; the key is shown only this once.\n` +
          `its webhook secret (signs its jobs' own webhooks), also shown only this once: ${created.webhook_secret}\n`,
      );
  },
  async list(client, _rest, values, io) {
    const keys = await client.listKeys();
    io.stdout(
      values.json
        ? `${JSON.stringify({ data: keys })}\n`
        : keys.length === 0
          ? "no keys yet\n"
          : table(rows(keys)),
    );
  },
  async budget(client, rest, values, io) {
    const [id, amount] = rest as [string, string];
    const budget = amount === "none" ? null : budgetOf(amount, values);
    const key = await client.setKeyBudget(id, budget);
    const text = budget === null ? `${key.id}: no budget` : `${key.id}: ${budgetText(key)}`;
    printKey(io, values.json, key, text);
  },
  async limits(client, rest, values, io) {
    const [id, text] = rest as [string, string];
    const key = await client.setKeyLimits(
      id,
      text === "none" ? null : limitsOf(text, "keys limits"),
    );
    const shown = Object.entries(key.limits ?? {})
      .map(([name, value]) => `${name}=${value ?? "none"}`)
      .join(", ");
    printKey(io, values.json, key, `${key.id}: ${shown}`);
  },
  async "rotate-secret"(client, rest, values, io) {
    const rotated = await client.rotateKeyWebhookSecret(rest[0] as string);
    io.stdout(values.json ? `${JSON.stringify(rotated)}\n` : `${rotated.webhook_secret}\n`);
    if (!values.json)
      io.stderr(
        `${rotated.id}: a new webhook secret, shown only this once; the old one signs beside it for 24 h.\n`,
      );
  },
  async revoke(client, rest, values, io) {
    const revoked = await client.revokeKey(rest[0] as string);
    printKey(io, values.json, revoked, `revoked ${revoked.id} at ${revoked.revokedAt}`);
  },
};

async function act(action: string, rest: string[], values: KeysValues, io: Io): Promise<number> {
  const { client } = await openSession(io);
  await (RUN[action] as Action)(client, rest, values, io);
  return 0;
}

export async function runKeys(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: {
      name: { type: "string" },
      scopes: { type: "string" },
      project: { type: "string" },
      limits: { type: "string" },
      expires: { type: "string" },
      budget: { type: "string" },
      period: { type: "string" },
      units: { type: "boolean", default: false },
      "on-sunset": { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const [first, ...rest] = positionals;
  const action = checkArgs(first, rest, values);
  return reportFailures(io, "keys", values.json, () => act(action, rest, values, io));
}
