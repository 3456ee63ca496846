/**
 * GET /v1/models?modality=video|image: the catalog reelay validates against, merged with the
 * upstream's own listing (which depends on the account, docs/contract.md §1.6). The listing is a courtesy: an
 * upstream that is down or slow leaves the catalog alone, with a warning, and never fails the call.
 * Over a pool every account is asked, and each model names the accounts that serve it (`accounts`).
 */
import { Hono } from "hono";
import * as z from "zod";
import {
  defaultCatalog,
  type Catalog,
  type Issue,
  type Kind,
  type ModelSpec,
} from "@reelay/core/domain";
import type {
  AccountModelLister,
  ApiEnv,
  ResolvedDeps,
  UpstreamModelLister,
} from "../../api-deps.ts";
import { modelItem, upstreamOnlyItem, type ModelItem } from "../../openapi/model-item.ts";
import { validQuery } from "../../query.ts";

const MODALITIES: readonly Kind[] = ["video", "image"];
const DEFAULT_UPSTREAM_MODELS_TIMEOUT_MS = 3000;

const modelsQuery = z.object({
  modality: z
    .enum(MODALITIES as readonly [Kind, ...Kind[]], {
      error: `modality must be one of ${MODALITIES.join(", ")}.`,
    })
    .optional(),
});

interface ListedModel {
  id: string;
  modality?: string;
}

type Listing = { ok: true; models: ListedModel[] } | { ok: false; warning: Issue };

/** A model some accounts of the pool list, with their names. */
interface PoolModel extends ListedModel {
  accounts: string[];
}

function unavailable(message: string): Listing {
  return { ok: false, warning: { path: "", code: "upstream_models_unavailable", message } };
}

async function askUpstream(
  list: UpstreamModelLister,
  modality: Kind | undefined,
  timeoutMs: number,
  whose: string,
): Promise<Listing> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return { ok: true, models: await Promise.race([list(modality), timeout]) };
  } catch (error) {
    const reason = error instanceof Error ? error.message.slice(0, 200) : String(error);
    return unavailable(
      `${whose} model listing did not answer (${reason}); the catalog alone is shown.`,
    );
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Every account's listing at once, each model kept only for the accounts whose `models` allow it,
 * with the names of the accounts that listed it. An account that does not answer adds a warning
 * naming it and serves nothing here.
 */
async function askPool(
  listers: readonly AccountModelLister[],
  modality: Kind | undefined,
  timeoutMs: number,
): Promise<{ models: PoolModel[]; warnings: Issue[] }> {
  const listings = await Promise.all(
    listers.map((lister) =>
      askUpstream(lister.list, modality, timeoutMs, `The account "${lister.account}"'s`),
    ),
  );
  const models = new Map<string, PoolModel>();
  const warnings: Issue[] = [];
  listers.forEach((lister, index) => {
    const listing = listings[index] as Listing;
    if (!listing.ok) {
      warnings.push(listing.warning);
      return;
    }
    for (const model of listing.models) {
      if (lister.models !== undefined && !lister.models.includes(model.id)) continue;
      const known = models.get(model.id) ?? { ...model, accounts: [] };
      known.accounts.push(lister.account);
      models.set(model.id, known);
    }
  });
  return { models: [...models.values()], warnings };
}

/** Catalog entries first (in catalog order), then what only the upstream lists. */
function mergeModels(
  catalog: Catalog,
  modality: Kind | undefined,
  upstream: readonly ListedModel[] | undefined,
): ModelItem[] {
  const items = new Map<string, ModelItem>();
  for (const spec of catalog.list(modality)) items.set(spec.code, modelItem(spec, "catalog"));
  for (const model of upstream ?? []) {
    const known = items.get(model.id);
    if (known !== undefined && known.match === "exact") {
      known.source = "both";
      continue;
    }
    if (items.has(model.id)) continue;
    // A concrete code under a prefix entry (lambda-, mu-) gets that entry's rules.
    const spec: ModelSpec | undefined = catalog.get(model.id);
    if (spec !== undefined && (modality === undefined || spec.kind === modality)) {
      items.set(model.id, { ...modelItem(spec, "both"), id: model.id, match: "exact" });
      continue;
    }
    const kind =
      model.modality === "video" || model.modality === "image"
        ? model.modality
        : (modality ?? null);
    items.set(model.id, upstreamOnlyItem(model.id, kind));
  }
  return [...items.values()];
}

/** Each item with the aliases that name it. */
function withAliases(items: ModelItem[], aliases: Record<string, string>): ModelItem[] {
  const names = Object.entries(aliases);
  return items.map((item) => ({
    ...item,
    aliases: names.filter(([, model]) => model === item.id).map(([alias]) => alias),
  }));
}

/** Each item with the accounts that serve it; a catalog model no account lists is served by none. */
function withAccounts(items: ModelItem[], listed: readonly PoolModel[]): ModelItem[] {
  const accounts = new Map(listed.map((model) => [model.id, model.accounts]));
  return items.map((item) => ({ ...item, accounts: accounts.get(item.id) ?? [] }));
}

export function modelRoutes(deps: ResolvedDeps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const catalog = deps.catalog ?? defaultCatalog;
  const timeoutMs = deps.upstreamModelsTimeoutMs ?? DEFAULT_UPSTREAM_MODELS_TIMEOUT_MS;
  const upstream = deps.upstreamModels;
  const aliases = catalog.aliases();

  routes.get("/", validQuery(modelsQuery), async (c) => {
    const { modality } = c.req.valid("query");
    if (upstream === undefined || typeof upstream === "function") {
      const listing =
        upstream === undefined
          ? unavailable("No upstream listing is configured here; the catalog alone is shown.")
          : await askUpstream(upstream, modality, timeoutMs, "The upstream's");
      const data = mergeModels(catalog, modality, listing.ok ? listing.models : undefined);
      return c.json({
        object: "list",
        data: withAliases(data, aliases),
        aliases,
        warnings: listing.ok ? [] : [listing.warning],
      });
    }
    const pool = await askPool(upstream, modality, timeoutMs);
    const data = withAccounts(mergeModels(catalog, modality, pool.models), pool.models);
    return c.json({
      object: "list",
      data: withAliases(data, aliases),
      aliases,
      warnings: pool.warnings,
    });
  });

  return routes;
}
