/**
 * The docs pages made from the code: docs/settings.md from the config module's SETTINGS and
 * docs/error-codes.md from the error registry. `npm run docs` writes them; test/docs/docs.test.ts
 * fails when a page differs from what this makes.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ERROR_CODES, type ErrorCode, SETTINGS } from "@reelay/core";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const SETTINGS_PAGE = "docs/settings.md";
const ERROR_CODES_PAGE = "docs/error-codes.md";

/**
 * Variables read outside the config module: the SST secrets the AWS functions fetch at cold start,
 * and the knobs of the fuzz tests. Listed here so the page names every `REELAY_*` the code reads.
 */
const READ_ELSEWHERE: readonly (readonly [name: string, where: string, about: string])[] = [
  [
    "`UPSTREAM_API_KEY`",
    "SST secret",
    "AWS: the upstream's key, fetched from SSM at cold start (`npx sst secrets set UPSTREAM_API_KEY ...`).",
  ],
  [
    "`REELAY_API_KEY`",
    "SST secret",
    "AWS: the admin key of reelay's API, fetched from SSM at cold start.",
  ],
  [
    "`REELAY_WEBHOOKS`",
    "SST secret",
    "AWS: the deployment's webhook subscribers, fetched from SSM (`'[]'` for none).",
  ],
  [
    "`REELAY_FUZZ_SEED`",
    "test/fuzz",
    "Replays a fuzz run: `REELAY_FUZZ_SEED=<seed> npx vitest run test/fuzz`.",
  ],
  ["`REELAY_FUZZ_SCALE`", "test/fuzz", "Runs the fuzz tests longer, e.g. `5`."],
];

/** A markdown table with its columns padded, as biome and readers like it. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((_, i) =>
    Math.max(...[header, ...rows].map((cells) => cells[i]?.length ?? 0)),
  );
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [
    line(header),
    line(widths.map((width) => "-".repeat(width))),
    ...rows.map((cells) => line(cells)),
  ].join("\n");
}

function settingsPage(): string {
  const rows = Object.entries(SETTINGS).map(([name, setting]) => [
    `\`${name}\``,
    setting.about,
    setting.default,
  ]);
  return `<!-- Generated from packages/core/src/config.ts by \`npm run docs\`; edit SETTINGS there. -->

# Settings

Every setting is an environment variable, read once, in \`loadConfig\` (packages/core/src/config.ts).
A bad value stops the start with \`invalid_config\` and names the variable.

On AWS these are read when you run \`npx sst deploy\` and handed to every function:
\`REELAY_UPSTREAM_URL\`, \`REELAY_DEFAULT_MODEL\`, \`REELAY_WEBHOOK_SCHEDULE\`,
\`REELAY_MAX_OUTPUT_BYTES\`, \`REELAY_LOG_LEVEL\`, \`REELAY_UPSTREAM_CONCURRENCY\`,
\`REELAY_UPSTREAM_RATE\`, \`REELAY_QUEUE_TIMEOUT_S\`, \`REELAY_PRICES\`, \`REELAY_BUDGET\` and
\`ALERT_EMAIL\` (the alarms' topic). The keys and the subscribers are SST secrets (below). See
[deploy.md](deploy.md).

${table(["variable", "what it does", "default"], rows)}

## Read elsewhere

${table(
  ["variable", "where", "what it does"],
  READ_ELSEWHERE.map((row) => [...row]),
)}
`;
}

function errorCodesPage(): string {
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
  return `<!-- Generated from packages/core/src/error-codes.ts by \`npm run docs\`; edit ERROR_CODES there. -->

# Error codes

Every code reelay answers, records on a job or reports comes from one registry, \`ERROR_CODES\` in
packages/core/src/error-codes.ts. An error is \`{"error": {"code", "message", "path"?, "errors"?}}\`.

- **HTTP** is the status reelay's API answers with the code. — marks a code no answer carries on
  its own: a job's error is read in its record, and waiting on an image edit that failed answers
  502 with the job's code.
- **retryable** says whether the same call, or the same request as a new job, may succeed later.
- **seen**: \`api\` an answer of the API, \`job\` a job's \`error\` or a step's \`lastError\`,
  \`validate\` an error or warning of validate(), \`drop\` a drop's rejected file, \`cli\` the CLI,
  \`setup\` a deployment's settings or wiring.

A job may also record the upstream's own code where the upstream names one, and an HTTP refusal
with no code of its own is \`http_<status>\`.

${table(["code", "HTTP", "retryable", "seen", "meaning"], rows)}
`;
}

/** Each generated page by its path from the repository's root. */
export function generatedPages(): Record<string, string> {
  return { [SETTINGS_PAGE]: settingsPage(), [ERROR_CODES_PAGE]: errorCodesPage() };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [path, text] of Object.entries(generatedPages())) {
    writeFileSync(`${ROOT}${path}`, text);
    console.log(`wrote ${path}`);
  }
}
