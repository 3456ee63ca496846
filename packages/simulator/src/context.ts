import type { IncomingMessage, ServerResponse } from "node:http";
import type { Counters } from "./counters.ts";
import {
  DOWNLOAD_FAULTS,
  TASK_FAULTS,
  type FaultEngine,
  type KeyedRule,
  type RequestTag,
} from "./fault-engine.ts";
import { parseFaultHeader } from "./fault-parse.ts";
import { delay, sendError, sendJson } from "./http-io.ts";
import type { UrlSigner } from "./signing.ts";
import type { TaskJournal } from "./persistence.ts";
import type { PortableIds } from "./portable-ids.ts";
import type { TaskRecord } from "./tasks.ts";
import type { DialectName, FaultName, FaultRule, ModelEntry } from "./types.ts";

/** Options after defaults; `setOptions` updates them in place. */
export interface ResolvedOptions {
  apiKey: string | undefined;
  generationMs: number;
  queueMs: number;
  timeScale: number;
  dialect: DialectName;
  outputBytes: number | undefined;
  urlTtlMs: number;
  models: ModelEntry[];
  syncImages: boolean;
  maxBodyBytes: number;
  now: () => number;
  maxConcurrent: number | undefined;
  createRate: number | undefined;
  forgetAfterMs: number;
  taskIdPrefix: string;
}

/** The state every route handler shares. */
export interface SimContext {
  opts: ResolvedOptions;
  tasks: Map<string, TaskRecord>;
  /** `<route>\n<idempotency key>` -> task id. */
  byKey: Map<string, string>;
  counters: Counters;
  engine: FaultEngine;
  signer: UrlSigner;
  serverRules: KeyedRule[];
  origin: string;
  /** Set when tasks persist across restarts (option `stateFile`). */
  journal?: TaskJournal;
  /** The create rate's clock (limits.ts): per account, when its next create may be made. */
  limits: { nextCreateAt: Map<string, number> };
  /** When ended tasks were last forgotten (forget.ts). */
  forgottenAt?: number;
  /** Set when task ids carry their tasks (option `portableIds`). */
  portable?: PortableIds;
  /** Aborts the material fetches still running when the simulator closes (material-fetch.ts). */
  fetches: AbortController;
}

/**
 * The task with this id: one this simulator knows, else the one a portable id carries (kept from
 * then on), unless it ended longer ago than the simulator remembers tasks.
 */
export function findTask(ctx: SimContext, id: string): TaskRecord | undefined {
  const known = ctx.tasks.get(id);
  if (known !== undefined || ctx.portable === undefined) return known;
  const carried = ctx.portable.decode(id, ctx.opts.apiKey ?? "");
  if (carried === undefined || carried.finishesAt < ctx.opts.now() - ctx.opts.forgetAfterMs)
    return undefined;
  ctx.tasks.set(id, carried);
  return carried;
}

export interface Req {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
}

const REQUEST_FAULTS: ReadonlySet<FaultName> = new Set([
  "rate_limit",
  "server_error",
  "reset",
  "business_error",
]);
const SLOW: ReadonlySet<FaultName> = new Set(["slow"]);

export function headerRules(r: Req): FaultRule[] {
  const raw = r.req.headers["x-sim-fault"];
  return parseFaultHeader(Array.isArray(raw) ? raw.join(",") : (raw ?? ""));
}

/** Header rules target the request that carries them, whatever kind it is. */
export function keyedHeaderRules(r: Req, only: (rule: FaultRule) => boolean): KeyedRule[] {
  return headerRules(r)
    .filter(only)
    .map((rule, i) => ({
      rule: { ...rule, on: rule.on ?? "any" },
      key: `hdr:${r.req.method} ${r.url.pathname}:${i}:${JSON.stringify(rule)}`,
    }));
}

export function isRequestFault(rule: FaultRule): boolean {
  return !TASK_FAULTS.has(rule.fault) && !DOWNLOAD_FAULTS.has(rule.fault);
}

export function answerFault(r: Req, rule: FaultRule): void {
  switch (rule.fault) {
    case "rate_limit": {
      const s = rule.retryAfterS ?? 1;
      sendError(r.res, 429, "rate_limited", "Too many requests; retry later", {
        "retry-after": String(Math.max(0, Math.ceil(s))),
      });
      return;
    }
    case "server_error":
      sendError(
        r.res,
        rule.status ?? 503,
        "server_error",
        "The service is temporarily unavailable",
      );
      return;
    case "business_error":
      sendJson(r.res, 200, {
        error: { code: "business_error", message: "The request was refused by the service" },
      });
      return;
    default:
      // reset, and any fault without an answer of its own: the client sees the connection drop.
      r.req.socket.destroy();
  }
}

export type FaultOutcome =
  | { kind: "none" }
  | { kind: "answered" }
  | { kind: "after"; rule: FaultRule };

/**
 * Applies request-level faults (server rules, the request's X-Sim-Fault header, and `extra`) to a
 * request about `model` (undefined: of no model).
 * `after` (reset/server_error on create) is returned instead of answered: the caller makes the task first.
 */
export async function requestFaults(
  ctx: SimContext,
  r: Req,
  tags: readonly RequestTag[],
  extra: KeyedRule[] = [],
  model?: string,
): Promise<FaultOutcome> {
  const rules = [...ctx.serverRules, ...keyedHeaderRules(r, isRequestFault), ...extra];
  const slow = ctx.engine.first(rules, tags, SLOW, model);
  if (slow !== undefined) await delay(slow.delayMs ?? 2000);
  const hit = ctx.engine.first(rules, tags, REQUEST_FAULTS, model);
  if (hit === undefined) return { kind: "none" };
  if (
    hit.after === true &&
    tags.includes("create") &&
    (hit.fault === "reset" || hit.fault === "server_error")
  ) {
    return { kind: "after", rule: hit };
  }
  answerFault(r, hit);
  return { kind: "answered" };
}
