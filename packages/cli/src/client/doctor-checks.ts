/**
 * What `reelay doctor` asks a running reelay, each answer a check with what to do when it fails.
 * Everything goes through the API with the caller's key, so the same checks run against the local
 * stack, the rehearsal and a deployment: the key's scopes are read off which routes answer and
 * which say 403 `scope_missing`; the upstream off the model listing, which asks every account with
 * its own key and costs nothing; the quote is a batch dry run, which makes nothing.
 */
import { isReelayError } from "@reelay/core/domain";
import { VERSION } from "@reelay/core/domain";
import type { BatchView, ModelsView, ReelayApiClient, SubscriberView } from "./api.ts";
import type { Health } from "./types.ts";

export interface CheckResult {
  check: string;
  ok: boolean;
  detail: string;
  /** What to do about a failed check; null when it passed. */
  fix: string | null;
}

const pass = (check: string, detail: string): CheckResult => ({
  check,
  ok: true,
  detail,
  fix: null,
});
const fail = (check: string, detail: string, fix: string): CheckResult => ({
  check,
  ok: false,
  detail,
  fix,
});

/** A call's answer, or the ReelayError it failed with. */
type Probe<T> =
  | { ok: true; value: T }
  | { ok: false; code: string; status?: number; message: string };

async function probe<T>(call: () => Promise<T>): Promise<Probe<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (!isReelayError(error)) throw error;
    return {
      ok: false,
      code: error.code,
      ...(error.status === undefined ? {} : { status: error.status }),
      message: error.message,
    };
  }
}

/**
 * Releases that speak the same API: the same major, and below 1.0.0 the same minor too (semver:
 * 0.x moves its API with the minor).
 */
export function sameApi(a: string, b: string): boolean {
  const [majorA, minorA] = a.split(".");
  const [majorB, minorB] = b.split(".");
  return majorA === majorB && (majorA !== "0" || minorA === minorB);
}

export async function reachableCheck(
  client: ReelayApiClient,
): Promise<{ result: CheckResult; health?: Health }> {
  const answer = await probe(() => client.health());
  if (answer.ok)
    return { result: pass("reachable", `${client.apiUrl} answers /healthz`), health: answer.value };
  return {
    result: fail(
      "reachable",
      `${client.apiUrl}: ${answer.message}`,
      "Start reelay (`npm start`) or set REELAY_API_URL to a running reelay's URL.",
    ),
  };
}

export function versionCheck(health: Health): CheckResult {
  const server = (health as { version?: unknown }).version;
  if (typeof server !== "string")
    return fail(
      "version",
      `the server names no version in /healthz (a release before 0.1.0); this CLI is ${VERSION}`,
      "Deploy the current release (CHANGELOG.md), or use the CLI of the server's commit.",
    );
  if (!sameApi(server, VERSION))
    return fail(
      "version",
      `server ${server}, this CLI ${VERSION}: different APIs`,
      `Use the CLI of release ${server} (CHANGELOG.md), or deploy ${VERSION}.`,
    );
  return pass("version", `server ${server}, this CLI ${VERSION}`);
}

/** The calls the checks after `version` share: one per scope, plus the model listing. */
export interface Probes {
  /** GET /v1/jobs?limit=1 (read). */
  read: Probe<unknown>;
  /** POST /v1/batches?dry_run=true (write): also the quote. */
  write: Probe<BatchView>;
  /** GET /v1/webhooks (webhooks): also the subscribers. */
  webhooks: Probe<SubscriberView[]>;
  /** GET /v1/upstreams (admin): also the accounts' names. */
  admin: Probe<{ data: { name: string }[] }>;
  /** GET /v1/models (read): every account's own listing. */
  models: Probe<ModelsView>;
}

/** One line asking for a model the catalog has: quoted, never made. */
const QUOTE_LINE = JSON.stringify({ model: "gamma-3.1", prompt: "reelay doctor: a quote only" });

export async function runProbes(client: ReelayApiClient): Promise<Probes> {
  const [read, write, webhooks, admin, models] = await Promise.all([
    probe(() => client.listJobs({ limit: 1 })),
    probe(() => client.createBatch(`${QUOTE_LINE}\n`, { dryRun: true })),
    probe(() => client.subscribers()),
    probe(() => client.upstreams()),
    probe(() => client.models()),
  ]);
  return { read, write, webhooks, admin, models };
}

const SCOPES = ["read", "write", "webhooks", "admin"] as const;

function refusedKey(probes: Probes): Probe<unknown> | undefined {
  return SCOPES.map((scope) => probes[scope]).find((p) => !p.ok && p.status === 401);
}

export function scopesCheck(probes: Probes): CheckResult {
  const refused = refusedKey(probes);
  if (refused !== undefined && !refused.ok)
    return fail(
      "scopes",
      `the key was refused: ${refused.message} [${refused.code}]`,
      "Set REELAY_API_KEY to a key of this reelay (the local stack's is in its data dir; `reelay keys create` makes one with the admin key).",
    );
  const held = SCOPES.filter((scope) => {
    const answer = probes[scope];
    return answer.ok || answer.code !== "scope_missing";
  });
  const missing = (["read", "write"] as const).filter((scope) => !held.includes(scope));
  const detail = `the key has ${held.length === 0 ? "no scope" : held.join(", ")}`;
  if (missing.length > 0)
    return fail(
      "scopes",
      `${detail}; it lacks ${missing.join(", ")}`,
      `Use a key with ${missing.join(" and ")}: \`reelay keys create --scopes read,write\` with the admin key.`,
    );
  return pass("scopes", detail);
}

const UNAVAILABLE = "upstream_models_unavailable";
/** What the model listing says where the API holds no upstream key (AWS: only Submit, Poll, Download do). */
const NOT_HERE = ["has no upstream API key", "No upstream listing is configured here"];
const REFUSED_KEY = "refused the API key";

interface Warning {
  code: string;
  message: string;
}

function upstreamLine(check: string, warning: Warning | undefined, listed: number): CheckResult {
  if (warning === undefined) return pass(check, `its model listing answered (${listed} models)`);
  if (NOT_HERE.some((text) => warning.message.includes(text)))
    return pass(check, `not checked: this API holds no upstream key (${warning.message})`);
  return fail(
    check,
    warning.message,
    warning.message.includes(REFUSED_KEY)
      ? "Set the account's key: REELAY_UPSTREAM_API_KEY or its api_key in REELAY_UPSTREAMS locally; on AWS `npx sst secrets set UPSTREAM_API_KEY` (a pool account: UPSTREAM_API_KEY_<NAME>)."
      : "Check the account's url in REELAY_UPSTREAM_URL or REELAY_UPSTREAMS, and that the upstream is up.",
  );
}

function upstreamWarnings(probes: Probes): Warning[] {
  return probes.models.ok ? probes.models.value.warnings.filter((w) => w.code === UNAVAILABLE) : [];
}

/**
 * One line per account of a pool (`upstream <name>`; their names need the admin key), else one
 * `upstream` line, as when this API asks no account at all.
 */
export function upstreamChecks(probes: Probes): CheckResult[] {
  const models = probes.models;
  if (!models.ok)
    return [
      fail(
        "upstream",
        `GET /v1/models failed: ${models.message} [${models.code}]`,
        "Use a key with the read scope; see the scopes line.",
      ),
    ];
  const warnings = upstreamWarnings(probes);
  const names = probes.admin.ok ? probes.admin.value.data.map((account) => account.name) : [];
  const notHere = warnings.find((w) => NOT_HERE.some((text) => w.message.includes(text)));
  if (names.length <= 1 || notHere !== undefined) {
    const listed = models.value.data.filter((item) => item.source !== "catalog").length;
    return [upstreamLine("upstream", notHere ?? warnings[0], listed)];
  }
  return names.map((name) => {
    const listed = models.value.data.filter((item) => item.accounts?.includes(name)).length;
    const warning = warnings.find((w) => w.message.includes(`"${name}"`));
    return upstreamLine(`upstream ${name}`, warning, listed);
  });
}

/**
 * The secrets the server holds, known by whether they work (their values never leave it): its API
 * key accepted the caller's, and each upstream key its account accepted.
 */
export function secretsCheck(probes: Probes): CheckResult {
  const refused = refusedKey(probes);
  if (refused !== undefined)
    return fail(
      "secrets",
      "the API key was refused (see the scopes line)",
      "On AWS the deployment's key is the REELAY_API_KEY secret (`npx sst secrets set REELAY_API_KEY ...`); locally REELAY_API_KEY or the data dir's key file.",
    );
  const upstreamRefused = upstreamWarnings(probes).filter((w) => w.message.includes(REFUSED_KEY));
  if (upstreamRefused.length > 0)
    return fail(
      "secrets",
      `the upstream refused ${upstreamRefused.length === 1 ? "a key" : `${upstreamRefused.length} keys`} (see the upstream lines)`,
      "Set the upstream key: REELAY_UPSTREAM_API_KEY (or api_key in REELAY_UPSTREAMS) locally; on AWS `npx sst secrets set UPSTREAM_API_KEY[_<NAME>] ...`.",
    );
  const checked = upstreamChecks(probes).every((line) => !line.detail.startsWith("not checked"));
  return pass(
    "secrets",
    checked
      ? "the API key and every upstream key checked were accepted"
      : "the API key was accepted; the upstream keys are not checked here",
  );
}

export function subscribersCheck(probes: Probes): CheckResult {
  const answer = probes.webhooks;
  if (answer.ok)
    return pass(
      "subscribers",
      `${answer.value.length} webhook subscriber(s) of this key's project; every terminal event also goes to the bus`,
    );
  if (answer.code === "scope_missing" || answer.status === 404)
    return pass("subscribers", `not checked: ${answer.message}`);
  return fail(
    "subscribers",
    `GET /v1/webhooks failed: ${answer.message} [${answer.code}]`,
    "Check the server's log for the subscriber store's error.",
  );
}

function estimateText(quote: BatchView): string {
  const estimate = quote.estimate;
  if (estimate === undefined || estimate === null) return "no estimate";
  const usage = `${estimate.usage.video_seconds} video s`;
  return estimate.cost === null
    ? `${usage}, unpriced`
    : `${usage}, ${estimate.cost} ${estimate.currency ?? ""}`.trim();
}

export function quoteCheck(probes: Probes): CheckResult {
  const answer = probes.write;
  if (!answer.ok)
    return fail(
      "quote",
      `POST /v1/batches?dry_run=true failed: ${answer.message} [${answer.code}]`,
      answer.code === "scope_missing"
        ? "Use a key with the write scope (see the scopes line)."
        : "Check the server's log; a dry run makes nothing, so it may be tried again.",
    );
  const rejected = answer.value.rejected?.[0]?.errors[0];
  if (answer.value.valid !== 1)
    return fail(
      "quote",
      `the sample request was rejected: ${rejected === undefined ? "no reason given" : `${rejected.message} [${rejected.code}]`}`,
      "The catalog or the pool serves no gamma-3.1 here: check REELAY_UPSTREAMS' models and the catalog.",
    );
  return pass("quote", `a dry run of one gamma-3.1 request: ${estimateText(answer.value)}`);
}
