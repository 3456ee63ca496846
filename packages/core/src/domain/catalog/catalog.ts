import { ReelayError } from "../errors.ts";
import { formatPath } from "../validate/issues.ts";
import { closeMatches } from "./close-matches.ts";
import { builtInModels } from "./families/index.ts";
import { catalogFileSchema } from "./file-schema.ts";
import type { Catalog, Kind, ModelSpec } from "./types.ts";

/** The built-in models plus `extra`; an extra entry with an existing code replaces it. */
export function createCatalog(extra: readonly ModelSpec[] = []): Catalog {
  const byCode = new Map<string, ModelSpec>();
  for (const spec of [...builtInModels, ...extra]) byCode.set(spec.code, spec);
  const models = [...byCode.values()];
  const prefixes = models.filter((spec) => spec.match === "prefix");

  return {
    get(code) {
      const exact = byCode.get(code);
      if (exact !== undefined && exact.match !== "prefix") return exact;
      // Longest prefix wins so a user's "lambda-x-" can refine the family entry "lambda-".
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
    },
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
