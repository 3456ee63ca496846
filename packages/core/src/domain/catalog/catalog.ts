import { ReelayError } from "../errors.ts";
import { formatPath } from "../validate/issues.ts";
import { closeMatches } from "./close-matches.ts";
import { builtInAliases, builtInModels } from "./families/index.ts";
import { catalogFileSchema } from "./file-schema.ts";
import {
  checkAliases,
  checkLifecycle,
  type ModelSettings,
  NO_MODEL_SETTINGS,
} from "./model-settings.ts";
import type { Catalog, Kind, ModelLifecycle, ModelResolution, ModelSpec } from "./types.ts";

/** The longest prefix entry `code` extends, so a user's "lambda-x-" can refine the family entry "lambda-". */
function longestPrefix(prefixes: readonly ModelSpec[], code: string): ModelSpec | undefined {
  let best: ModelSpec | undefined;
  for (const spec of prefixes) {
    if (
      code.startsWith(spec.code) &&
      code.length > spec.code.length &&
      (best === undefined || spec.code.length > best.code.length)
    ) {
      best = spec;
    }
  }
  return best;
}

/** Deprecated from deprecated_at, or while a sunset_at is ahead; sunset from sunset_at on. */
export function lifecycleState(lifecycle: ModelLifecycle, now: Date): ModelResolution["state"] {
  const at = (iso: string | undefined) => (iso === undefined ? Number.NaN : Date.parse(iso));
  const sunset = at(lifecycle.sunset_at);
  if (sunset <= now.getTime()) return "sunset";
  if (at(lifecycle.deprecated_at) <= now.getTime() || Number.isFinite(sunset)) return "deprecated";
  return "active";
}

function lifecycleOf(spec: ModelSpec): ModelLifecycle {
  const { deprecated_at, sunset_at, successor } = spec;
  return {
    ...(deprecated_at === undefined ? {} : { deprecated_at }),
    ...(sunset_at === undefined ? {} : { sunset_at }),
    ...(successor === undefined ? {} : { successor }),
  };
}

/**
 * The built-in models plus `extra`; an extra entry with an existing code replaces it. `settings`
 * adds the operator's aliases and lifecycles, each checked here: a bad one is `invalid_config`
 * naming the setting (a catalog file's own successor that is unknown, `catalog_invalid`).
 */
export function createCatalog(
  extra: readonly ModelSpec[] = [],
  settings: ModelSettings = NO_MODEL_SETTINGS,
): Catalog {
  const byCode = new Map<string, ModelSpec>();
  for (const spec of [...builtInModels, ...extra]) byCode.set(spec.code, spec);
  for (const [code, lifecycle] of Object.entries(settings.lifecycle)) {
    const spec = byCode.get(code);
    if (spec !== undefined) byCode.set(code, { ...spec, ...lifecycle });
  }
  const models = [...byCode.values()];
  const prefixes = models.filter((spec) => spec.match === "prefix");
  const get = (code: string): ModelSpec | undefined => {
    const exact = byCode.get(code);
    if (exact !== undefined && exact.match !== "prefix") return exact;
    return longestPrefix(prefixes, code);
  };
  const aliases = { ...builtInAliases, ...settings.aliases };
  checkAliases(settings.aliases, get, { code: "invalid_config", path: "REELAY_MODEL_ALIASES" });
  for (const [code, lifecycle] of Object.entries(settings.lifecycle))
    checkLifecycle(code, lifecycle, get, {
      code: "invalid_config",
      path: "REELAY_MODEL_LIFECYCLE",
    });
  for (const spec of extra)
    checkLifecycle(spec.code, lifecycleOf(spec), get, { code: "catalog_invalid", path: "models" });

  return {
    get,
    resolve(name, now) {
      const model = Object.hasOwn(aliases, name) ? (aliases[name] as string) : name;
      const spec = get(model);
      if (spec === undefined) return undefined;
      const lifecycle = lifecycleOf(spec);
      return { requested: name, model, spec, state: lifecycleState(lifecycle, now), lifecycle };
    },
    aliases: () => ({ ...aliases }),
    list(kind?: Kind) {
      return kind === undefined ? [...models] : models.filter((spec) => spec.kind === kind);
    },
    closeMatches(code, limit = 3) {
      const names = models.map((spec) =>
        spec.match === "prefix" ? `${spec.code}<version>` : spec.code,
      );
      return closeMatches(code, names, limit);
    },
  };
}

/** The catalog of the service contract alone. */
export const defaultCatalog: Catalog = createCatalog();

interface PathIssue {
  path: PropertyKey[];
  message: string;
  code?: string;
  errors?: PathIssue[][];
}

/** Into a union's closest branch, so the path names the bad field rather than the union. */
function innermost(issue: PathIssue): PathIssue {
  if (issue.code !== "invalid_union" || issue.errors === undefined || issue.errors.length === 0)
    return issue;
  const branch = [...issue.errors].sort((a, b) => a.length - b.length)[0];
  const inner = branch?.[0];
  if (inner === undefined) return issue;
  const deeper = innermost(inner);
  return { ...deeper, path: [...issue.path, ...deeper.path] };
}

/**
 * Validates one user catalog file (JSON text or an already parsed value) and returns its models.
 * A bad file is a ReelayError `catalog_invalid` whose `path` names the first bad field.
 */
export function parseCatalogFile(file: unknown, source = "catalog file"): ModelSpec[] {
  let value = file;
  if (typeof file === "string") {
    try {
      value = JSON.parse(file);
    } catch (error) {
      throw new ReelayError(
        "catalog_invalid",
        `${source} is not valid JSON: ${(error as Error).message}`,
        {
          path: "",
          cause: error,
        },
      );
    }
  }
  const parsed = catalogFileSchema().safeParse(value);
  if (!parsed.success) {
    const first =
      parsed.error.issues[0] === undefined
        ? undefined
        : innermost(parsed.error.issues[0] as PathIssue);
    const path = formatPath(first?.path ?? []);
    throw new ReelayError(
      "catalog_invalid",
      `${source}: ${path === "" ? "the file" : path}: ${first?.message ?? "invalid"}.`,
      {
        path,
        details: {
          issues: parsed.error.issues.map((issue) => ({
            path: formatPath(issue.path),
            message: issue.message,
          })),
        },
      },
    );
  }
  return parsed.data.models;
}

/** The built-in catalog extended by user files, later files winning over earlier ones. */
export function loadCatalog(files: readonly unknown[] = []): Catalog {
  return createCatalog(
    files.flatMap((file, index) => parseCatalogFile(file, `catalog file #${index + 1}`)),
  );
}
