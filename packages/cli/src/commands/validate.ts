/**
 * `reelay validate FILE... [--json] [--catalog FILE] [--fit]`: checks requests against the model catalog,
 * offline, and estimates what each valid one would use (and cost, under REELAY_PRICES). Exit 0 when every file is valid, 1 when any is invalid, 2 for usage errors or files that
 * cannot be read. `--fit` checks each as `fit: "nearest"` would (domain/validate/fit.ts) and
 * prints what it moved.
 */
import { readFile } from "node:fs/promises";
import { loadConfig } from "@reelay/core/wiring";
import {
  estimateOf,
  type PriceTable,
  fromMicros,
  usageView,
  createCatalog,
  parseCatalogFile,
  validate,
  type Catalog,
  type Issue,
  type ValidationResult,
} from "@reelay/core/domain";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

export interface FileVerdict extends Omit<ValidationResult, "model"> {
  file: string;
  /** What a valid request would use, and cost under the price table; null when invalid. */
  estimate: {
    usage: Record<string, unknown>;
    cost: number | null;
    currency: string | null;
  } | null;
}

export async function runValidate(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: {
      json: { type: "boolean", default: false },
      catalog: { type: "string", multiple: true },
      fit: { type: "boolean", default: false },
    },
  });
  if (positionals.length === 0)
    throw new UsageError('give at least one FILE to check ("-" reads stdin).');

  const catalog = await loadCatalogFiles(values.catalog ?? []);
  const prices = loadConfig(io.env).prices;
  let exit = 0;
  for (const file of positionals) {
    let text: string;
    try {
      text = file === "-" ? await io.readStdin() : await readFile(file, "utf8");
    } catch (error) {
      io.stderr(
        `reelay validate: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`,
      );
      exit = 2;
      continue;
    }
    const verdict = checkText(file, text, catalog, prices, values.fit);
    if (!verdict.valid && exit === 0) exit = 1;
    io.stdout(values.json ? `${JSON.stringify(verdict)}\n` : describe(verdict));
  }
  return exit;
}

/** A file that is not JSON is an invalid request, reported like any other field error. */
export function checkText(
  file: string,
  text: string,
  catalog: Catalog,
  prices?: PriceTable,
  fit = false,
): FileVerdict {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      file,
      valid: false,
      kind: null,
      mode: null,
      errors: [
        { path: "", code: "invalid_json", message: `The file is not valid JSON: ${reason}.` },
      ],
      warnings: [],
      normalized: null,
      estimate: null,
    };
  }
  const result = validate(body, { catalog, fit: fit ? "nearest" : undefined });
  // Field order is part of the --json contract: file, valid, kind, mode, errors, warnings,
  // normalized, estimate, and with --fit adjustments when fitting made the request valid.
  const estimate =
    result.valid && result.kind !== null && result.model !== null && result.normalized !== null
      ? estimateOf({ model: result.model, request: result.normalized }, prices)
      : undefined;
  return {
    file,
    valid: result.valid,
    kind: result.kind,
    mode: result.mode,
    errors: result.errors,
    warnings: result.warnings,
    normalized: result.normalized,
    estimate:
      estimate === undefined
        ? null
        : {
            usage: usageView(estimate.usage),
            cost: estimate.costMicros === null ? null : fromMicros(estimate.costMicros),
            currency: estimate.currency,
          },
    ...(result.adjustments === undefined ? {} : { adjustments: result.adjustments }),
  };
}

async function loadCatalogFiles(paths: string[]): Promise<Catalog> {
  const extra = [];
  for (const path of paths) {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      throw new UsageError(
        `cannot read catalog ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
    try {
      extra.push(parseCatalogFile(JSON.parse(text)));
    } catch (error) {
      throw new UsageError(
        `catalog ${path} is not usable: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return createCatalog(extra.flat());
}

function describe(verdict: FileVerdict): string {
  const lines: string[] = [];
  const what = [verdict.kind, verdict.mode].filter(Boolean).join(", ");
  lines.push(`${verdict.valid ? "valid" : "INVALID"}  ${verdict.file}${what ? `  (${what})` : ""}`);
  const line = (label: string) => (issue: Issue) =>
    lines.push(`  ${label} ${issue.path || "(body)"}: ${issue.message} [${issue.code}]`);
  verdict.errors.forEach(line("error  "));
  verdict.warnings.forEach(line("warning"));
  for (const { path, from, to } of verdict.adjustments ?? [])
    lines.push(`  fitted  ${path}: ${JSON.stringify(from)} -> ${JSON.stringify(to)}`);
  const estimate = verdict.estimate;
  if (estimate !== null) {
    const { unit, quantity, ...rest } = estimate.usage;
    const details = Object.entries(rest)
      .map(([name, value]) => `${name} ${value ?? "default"}`)
      .join(", ");
    const cost = estimate.cost === null ? "no price" : `${estimate.cost} ${estimate.currency}`;
    lines.push(`  estimate ${quantity} ${unit}${quantity === 1 ? "" : "s"} (${details}): ${cost}`);
  }
  return `${lines.join("\n")}\n`;
}
