/**
 * The README's error table, rendered from the registry. The test in error-codes.test.ts fails when
 * the README's copy differs; `npx tsx packages/core/test/support/error-table.ts --write` rewrites it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ERROR_CODES, type ErrorCode } from "../../src/domain/error-codes.ts";

export const README = fileURLToPath(new URL("../../../../README.md", import.meta.url));
const BEGIN = "<!-- error-codes:begin (generated from packages/core/src/error-codes.ts) -->";
const END = "<!-- error-codes:end -->";

function row(cells: readonly string[], widths: readonly number[]): string {
  return `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | ")} |`;
}

/** The table as the README holds it: one row per code, in the registry's order, columns padded. */
export function errorTable(): string {
  const header = ["code", "HTTP", "retryable", "seen", "meaning"];
  const rows = (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => {
    const info: { status?: number; retryable: boolean; meaning: string; seen: readonly string[] } =
      ERROR_CODES[code];
    return [
      `\`${code}\``,
      info.status === undefined ? "—" : String(info.status),
      info.retryable ? "yes" : "no",
      info.seen.join(", "),
      info.meaning,
    ];
  });
  const widths = header.map((_, i) =>
    Math.max(...[header, ...rows].map((cells) => cells[i]!.length)),
  );
  const rule = row(
    widths.map((width) => "-".repeat(width)),
    widths,
  );
  return [row(header, widths), rule, ...rows.map((cells) => row(cells, widths))].join("\n");
}

/** What the README holds between its markers, or undefined when a marker is missing. */
export function readmeTable(text: string): string | undefined {
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin === -1 || end < begin) return undefined;
  return text.slice(begin + BEGIN.length, end).trim();
}

function writeReadme(): void {
  const text = readFileSync(README, "utf8");
  if (readmeTable(text) === undefined) throw new Error(`${README} has no ${BEGIN} ... ${END}`);
  const before = text.slice(0, text.indexOf(BEGIN) + BEGIN.length);
  const after = text.slice(text.indexOf(END));
  writeFileSync(README, `${before}\n${errorTable()}\n${after}`);
}

if (process.argv.includes("--write") && process.argv[1] === fileURLToPath(import.meta.url)) {
  writeReadme();
}
