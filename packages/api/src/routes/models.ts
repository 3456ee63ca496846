/**
 * GET /v1/models?modality=video|image: the catalog reelay validates against, merged with the
 * upstream's own listing (which depends on the account, docs/contract.md §1.6). The listing is a courtesy: an
 * upstream that is down or slow leaves the catalog alone, with a warning, and never fails the call.
 */
import { Hono } from "hono";
import {
  defaultCatalog,
  ReelayError,
  type Catalog,
  type Issue,
  type Kind,
  type ModelSpec,
} from "@reelay/core";
import type { ApiEnv, ResolvedDeps, UpstreamModelLister } from "../api-deps.ts";
import { modelItem, upstreamOnlyItem, type ModelItem } from "../openapi/model-item.ts";

const MODALITIES: readonly Kind[] = ["video", "image"];
const DEFAULT_UPSTREAM_MODELS_TIMEOUT_MS = 3000;

function readModality(raw: string | undefined): Kind | undefined {
  if (raw === undefined) return undefined;
  if (!(MODALITIES as readonly string[]).includes(raw)) {
    throw new ReelayError("invalid_query", `modality must be one of ${MODALITIES.join(", ")}.`, {
      status: 400,
      path: "modality",
    });
  }
  return raw as Kind;
}

type Listing =
  | { ok: true; models: { id: string; modality?: string }[] }
  | { ok: false; warning: Issue };

async function askUpstream(
  list: UpstreamModelLister | undefined,
  modality: Kind | undefined,
  timeoutMs: number,
): Promise<Listing> {
  if (list === undefined) {
    return {
      ok: false,
      warning: {
        path: "",
        code: "upstream_models_unavailable",
        message: "No upstream listing is configured here; the catalog alone is shown.",
      },
    };
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return { ok: true, models: await Promise.race([list(modality), timeout]) };
  } catch (error) {
    const reason = error instanceof Error ? error.message.slice(0, 200) : String(error);
    return {
      ok: false,
      warning: {
        path: "",
        code: "upstream_models_unavailable",
        message: `The upstream's model listing did not answer (${reason}); the catalog alone is shown.`,
      },
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Catalog entries first (in catalog order), then what only the upstream lists. */
function mergeModels(
  catalog: Catalog,
  modality: Kind | undefined,
  upstream: readonly { id: string; modality?: string }[] | undefined,
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

export function modelRoutes(deps: ResolvedDeps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const catalog = deps.catalog ?? defaultCatalog;
  const timeoutMs = deps.upstreamModelsTimeoutMs ?? DEFAULT_UPSTREAM_MODELS_TIMEOUT_MS;

  routes.get("/", async (c) => {
    const modality = readModality(c.req.query("modality"));
    const listing = await askUpstream(deps.upstreamModels, modality, timeoutMs);
    const data = mergeModels(catalog, modality, listing.ok ? listing.models : undefined);
    return c.json({ object: "list", data, warnings: listing.ok ? [] : [listing.warning] });
  });

  return routes;
}
