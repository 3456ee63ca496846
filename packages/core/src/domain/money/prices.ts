/**
 * The operator's price table (REELAY_PRICES): per model, a price per second of video by resolution
 * (plus an audio surcharge per second), or a price per image by tier (plus one per reference image).
 * reelay ships no prices of its own: without a table every cost is null and budgets count units.
 * Costs are kept in millionths of the currency unit, so sums over many jobs are exact.
 */
import { createHash } from "node:crypto";
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all of it).
import * as z from "zod";
import { ReelayError } from "../errors.ts";
import { onFirstUse } from "../on-first-use.ts";
import type { Usage } from "./types.ts";

/** The price file's schema, built at its first use (most deployments set no prices). */
const priceFile = onFirstUse(() => {
  const Amount = z.number().finite().min(0);
  /** Prices by resolution or tier; `default` stands for any other, and for the model's own default. */
  const ByTier = z.record(z.string().min(1), Amount);

  const ModelPrices = z
    .object({
      per_second: ByTier.optional(),
      audio_per_second: Amount.optional(),
      per_image: ByTier.optional(),
      per_reference_image: Amount.optional(),
    })
    .strict()
    .refine((m) => m.per_second !== undefined || m.per_image !== undefined, {
      message: "a model's prices need per_second (video) or per_image (images)",
    });

  return z
    .object({
      currency: z.string().regex(/^[A-Z]{3}$/, "a three-letter ISO 4217 code, e.g. USD"),
      models: z.record(z.string().min(1), ModelPrices),
    })
    .strict();
});

type ModelPrices = z.infer<ReturnType<typeof priceFile>>["models"][string];

export interface PriceTable {
  currency: string;
  models: Record<string, ModelPrices>;
  /** sha256 of the table's text: stored with each job's estimate, so a later table changes no past cost. */
  version: string;
  /** The table's text as given (the stack hands it to the functions unchanged). */
  text: string;
}

/** Parses and checks a price table; every problem names its path in the file. */
export function parsePrices(text: string, origin: string): PriceTable {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ReelayError("invalid_config", `${origin} is not valid JSON (${String(error)}).`, {
      path: "REELAY_PRICES",
    });
  }
  const parsed = priceFile().safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path.join(".") ?? "";
    throw new ReelayError(
      "invalid_config",
      `${origin}: ${at === "" ? "" : `${at}: `}${issue?.message ?? "not a price table"}.`,
      { path: `REELAY_PRICES${at === "" ? "" : `.${at}`}` },
    );
  }
  return { ...parsed.data, version: createHash("sha256").update(text).digest("hex"), text };
}

const MICROS = 1_000_000;

/** The price of a usage in millionths of the currency; undefined when the table does not price it. */
export function costMicros(table: PriceTable, model: string, usage: Usage): number | undefined {
  const prices = table.models[model];
  if (prices === undefined) return undefined;
  const pick = (byTier: Record<string, number> | undefined, tier: string | null) =>
    byTier === undefined ? undefined : (byTier[tier ?? "default"] ?? byTier.default);
  if (usage.unit === "video_second") {
    const perSecond = pick(prices.per_second, usage.resolution);
    if (perSecond === undefined) return undefined;
    const audio = usage.audio ? (prices.audio_per_second ?? 0) : 0;
    return Math.round((perSecond + audio) * MICROS) * usage.quantity;
  }
  const perImage = pick(prices.per_image, usage.tier);
  if (perImage === undefined) return undefined;
  const references = (prices.per_reference_image ?? 0) * usage.referenceImages;
  return Math.round((perImage + references) * MICROS) * usage.quantity;
}

export const fromMicros = (micros: number): number => micros / MICROS;
