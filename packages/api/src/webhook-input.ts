/**
 * A job's own webhook, asked for when it is made: `X-Reelay-Webhook: <url>` (and, optionally,
 * `X-Reelay-Webhook-Events: Generation Succeeded,...`) on the contract's create routes, whose bodies
 * are the contract's own; `webhook_url` and `webhook_events` in a batch's JSON body (or the same
 * headers with a JSONL one). Its deliveries are signed with the webhook secret of the key that asked
 * (`reelay keys create` shows it once), so the deployment's own key, which has none, cannot ask.
 * The URL is user input: it gets the managed subscribers' check (domain/webhooks/url-guard.ts) at create,
 * a 400 whose code names why.
 */
import {
  type JobWebhook,
  WEBHOOK_EVENT_TYPES,
  checkWebhookUrl,
  ReelayError,
} from "@reelay/core/domain";
import { systemResolver } from "@reelay/core/wiring";
import { isAdmin } from "./auth.ts";
import type { Caller, ResolvedDeps } from "./api-deps.ts";

const WEBHOOK_HEADER = "X-Reelay-Webhook";
const WEBHOOK_EVENTS_HEADER = "X-Reelay-Webhook-Events";
const MAX_URL = 2000;

function invalid(path: string, message: string): ReelayError {
  return new ReelayError("invalid_request", message, { status: 400, path });
}

function readEvents(raw: unknown, path: string): string[] | undefined {
  if (raw === undefined) return undefined;
  const list =
    typeof raw === "string" ? raw.split(",").map((part) => part.trim()) : (raw as unknown[]);
  const known = WEBHOOK_EVENT_TYPES as readonly string[];
  if (!Array.isArray(list) || list.length === 0 || !list.every((e) => known.includes(e as string)))
    throw invalid(path, `${path} lists event types, each one of: ${known.join(", ")}.`);
  return list as string[];
}

/** The webhook asked for, checked; undefined when none was. */
export async function readJobWebhook(
  deps: ResolvedDeps,
  caller: Caller,
  given: { url?: unknown; events?: unknown },
  paths: { url: string; events: string },
): Promise<JobWebhook | undefined> {
  if (given.url === undefined) {
    if (given.events !== undefined)
      throw invalid(paths.events, `${paths.events} needs ${paths.url}.`);
    return undefined;
  }
  if (typeof given.url !== "string" || given.url === "" || given.url.length > MAX_URL)
    throw invalid(
      paths.url,
      `${paths.url} is an absolute https URL of at most ${MAX_URL} characters.`,
    );
  if (isAdmin(caller))
    throw new ReelayError(
      "webhook_needs_stored_key",
      "A job's own webhook is signed with the webhook secret of the API key that made the job; the deployment's own key has none. Make a key with `reelay keys create` (it shows its whsec_ secret once) and create the job with it.",
      { status: 400, path: paths.url },
    );
  const deployment = deps.webhooks?.managed?.deployment ?? "aws";
  let url: string;
  try {
    url = await checkWebhookUrl(given.url, deployment, systemResolver);
  } catch (error) {
    if (!(error instanceof ReelayError)) throw error;
    throw new ReelayError(error.code, error.message, { status: 400, path: paths.url });
  }
  const events = readEvents(given.events, paths.events);
  return { url, ...(events === undefined ? {} : { events }) };
}

/** The headers' ask, on the contract's create routes. */
export function headerWebhook(header: (name: string) => string | undefined) {
  return { url: header(WEBHOOK_HEADER), events: header(WEBHOOK_EVENTS_HEADER) };
}

export const HEADER_PATHS = { url: WEBHOOK_HEADER, events: WEBHOOK_EVENTS_HEADER };
