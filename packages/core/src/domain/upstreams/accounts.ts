/**
 * The upstream accounts reelay spreads jobs over (REELAY_UPSTREAMS): each its own base URL, key,
 * cap and rate, optionally only some models and its own prices. One account named `default` stands
 * for the one-account form (REELAY_UPSTREAM_URL / REELAY_UPSTREAM_API_KEY, or the simulator).
 */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all of it).
import * as z from "zod";
import { ReelayError } from "../errors.ts";
import { onFirstUse } from "../on-first-use.ts";
import { MAX_UPSTREAM_CONCURRENCY } from "../admission/settings.ts";
import { parsePrices, type PriceTable } from "../money/prices.ts";

/** The one account of a configuration without REELAY_UPSTREAMS; its admission item keeps its old key. */
export const DEFAULT_ACCOUNT = "default";

export const ROUTINGS = ["balanced", "ordered", "cheapest"] as const;
/** How a queued job picks among the accounts that could take it now (domain/upstreams/routing.ts). */
export type Routing = (typeof ROUTINGS)[number];

export interface UpstreamAccount {
  name: string;
  /** Base URL ending in /v1 (normalised by the wiring's config). */
  url: string;
  /** Never logged, never in a record or an event. */
  apiKey: string;
  /** The models this account serves; undefined = every model. */
  models?: string[];
  /** Tasks in flight at most; undefined = learned from its 429s. */
  concurrency?: number;
  /** Creates per second at most; undefined = as its slots free up. */
  ratePerS?: number;
  /** Its share of the pool under `balanced` routing; default 1. */
  weight: number;
  /** Replaces REELAY_PRICES for jobs this account runs. */
  prices?: PriceTable;
}

const NAME = /^[a-z][a-z0-9-]{0,31}$/;

/** REELAY_UPSTREAMS's schema, built at its first use (most deployments have one account). */
const poolSchema = onFirstUse(() => {
  const AccountSchema = z
    .object({
      name: z
        .string()
        .regex(NAME, "a name is a lowercase letter then up to 31 lowercase letters, digits or -"),
      url: z.string().min(1, "the account's base URL, ending in /v1"),
      api_key: z.string().min(1, "the account's API key"),
      models: z.array(z.string().min(1)).min(1, "omit models for every model").optional(),
      concurrency: z.number().int().min(1).max(MAX_UPSTREAM_CONCURRENCY).optional(),
      rate: z.number().finite().positive().optional(),
      weight: z.number().finite().positive().max(1000).default(1),
      prices: z.record(z.string(), z.unknown()).optional(),
    })
    .strict();

  return z.array(AccountSchema).min(1, "list at least one account");
});

function invalid(message: string, path: string): never {
  throw new ReelayError("invalid_config", message, { path });
}

/** Where an issue is, as a person would write it: REELAY_UPSTREAMS[1].url. */
function pathOf(parts: readonly PropertyKey[]): string {
  return parts.reduce<string>(
    (path, part) => (typeof part === "number" ? `${path}[${part}]` : `${path}.${String(part)}`),
    "REELAY_UPSTREAMS",
  );
}

/**
 * REELAY_UPSTREAMS's text: a JSON list of accounts. Every problem is one line naming the entry (by
 * its place and, once known, its name) and the field. The base URLs are checked by the caller.
 */
export function parseUpstreams(text: string, origin: string): UpstreamAccount[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return invalid(`${origin} is not valid JSON (${String(error)}).`, "REELAY_UPSTREAMS");
  }
  const parsed = poolSchema().safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const parts = issue?.path ?? [];
    const index = typeof parts[0] === "number" ? parts[0] : undefined;
    const name = index === undefined ? undefined : (json as { name?: unknown }[])[index]?.name;
    const entry = typeof name === "string" && name !== "" ? ` (account "${name}")` : "";
    return invalid(
      `${origin}: ${pathOf(parts)}${entry}: ${issue?.message ?? "not a list of accounts"}.`,
      pathOf(parts),
    );
  }
  const seen = new Set<string>();
  return parsed.data.map((account, index) => {
    if (seen.has(account.name))
      invalid(
        `${origin}: REELAY_UPSTREAMS[${index}].name: "${account.name}" is listed twice; names must be unique.`,
        `REELAY_UPSTREAMS[${index}].name`,
      );
    seen.add(account.name);
    return {
      name: account.name,
      url: account.url,
      apiKey: account.api_key,
      weight: account.weight,
      ...(account.models === undefined ? {} : { models: account.models }),
      ...(account.concurrency === undefined ? {} : { concurrency: account.concurrency }),
      ...(account.rate === undefined ? {} : { ratePerS: account.rate }),
      ...(account.prices === undefined
        ? {}
        : { prices: accountPrices(account.prices, `REELAY_UPSTREAMS[${index}].prices`) }),
    };
  });
}

/** An account's own price table, in REELAY_PRICES's format; its problems name the account's field. */
function accountPrices(raw: unknown, path: string): PriceTable {
  try {
    return parsePrices(JSON.stringify(raw), path);
  } catch (error) {
    if (!(error instanceof ReelayError)) throw error;
    const at = (error.path ?? "").replace(/^REELAY_PRICES/, path);
    return invalid(error.message, at);
  }
}

/** Whether the account serves the model. */
export function serves(account: Pick<UpstreamAccount, "models">, model: string): boolean {
  return account.models === undefined || account.models.includes(model);
}
