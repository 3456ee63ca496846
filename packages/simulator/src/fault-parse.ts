import { isDialect } from "./dialects.ts";
import {
  FAULT_NAMES,
  type DialectName,
  type FaultName,
  type FaultRule,
  type FaultTarget,
} from "./types.ts";

const TARGETS: readonly string[] = ["create", "poll", "download", "image", "any"];

function isFaultName(value: string): value is FaultName {
  return (FAULT_NAMES as readonly string[]).includes(value);
}

function finite(value: string): number | undefined {
  const n = Number(value);
  return value.trim() !== "" && Number.isFinite(n) ? n : undefined;
}

/** Applies one `key=value` parameter to a rule; unknown keys and bad values are ignored on purpose (never crash). */
function applyParam(rule: FaultRule, key: string, value: string): void {
  const k = key.toLowerCase().replace(/-/g, "_");
  const n = finite(value);
  if (k === "times" && n !== undefined) rule.times = n;
  else if (k === "probability" && n !== undefined) rule.probability = n;
  else if ((k === "retry_after" || k === "retry_after_s" || k === "retryafters") && n !== undefined)
    rule.retryAfterS = n;
  else if ((k === "delay_ms" || k === "delay" || k === "delayms") && n !== undefined)
    rule.delayMs = n;
  else if (k === "status" && n !== undefined) rule.status = n;
  else if (k === "on" && TARGETS.includes(value)) rule.on = value as FaultTarget;
  else if (k === "after") rule.after = value === "" || value === "true" || value === "1";
  else if (k === "reason") rule.reason = value;
  else if (k === "model" && value !== "") rule.model = value;
}

/** Parses the `X-Sim-Fault` header: `rate_limit;times=2;retry_after=1, server_error`. */
export function parseFaultHeader(text: string): FaultRule[] {
  const rules: FaultRule[] = [];
  for (const part of text.split(",")) {
    const [head = "", ...params] = part.split(";").map((s) => s.trim());
    if (!isFaultName(head)) continue;
    const rule: FaultRule = { fault: head };
    for (const p of params) {
      const eq = p.indexOf("=");
      applyParam(rule, eq < 0 ? p : p.slice(0, eq), eq < 0 ? "" : p.slice(eq + 1).trim());
    }
    rules.push(rule);
  }
  return rules;
}

/** What `[[sim:...]]` prompt directives ask of the task made from that prompt. */
export interface Directives {
  faults: FaultRule[];
  generationMs?: number;
  queueMs?: number;
  dialect?: DialectName;
  outputBytes?: number;
  /** Serve a clip this long whatever the request asked (`output_duration_s=2`). */
  outputDurationS?: number;
}

const DIRECTIVE = /\[\[sim:([^\]]*)\]\]/g;
const PARAM = /([\w-]+)(?:=("([^"]*)"|\S*))?/g;

/**
 * Directives travel inside the prompt, so they reach the simulator unchanged through every layer of
 * reelay: `[[sim:task_fail]]`, `[[sim:download_error times=1]]`, `[[sim:generation_ms=500]]`, `[[sim:dialect=flat]]`.
 */
export function parseDirectives(prompt: string): Directives {
  const out: Directives = { faults: [] };
  for (const match of prompt.matchAll(DIRECTIVE)) {
    const params = [...(match[1] ?? "").matchAll(PARAM)].map((m) => ({
      key: m[1] ?? "",
      value: m[3] ?? m[2] ?? "",
    }));
    const [head, ...rest] = params;
    if (head === undefined) continue;
    const name = head.key.toLowerCase().replace(/-/g, "_");
    const n = finite(head.value);
    if (name === "generation_ms" && n !== undefined && n >= 0) out.generationMs = n;
    else if (name === "queue_ms" && n !== undefined && n >= 0) out.queueMs = n;
    else if (name === "output_bytes" && n !== undefined && n >= 0) out.outputBytes = Math.floor(n);
    else if (name === "output_duration_s" && n !== undefined && n > 0) out.outputDurationS = n;
    else if (name === "dialect" && isDialect(head.value)) out.dialect = head.value;
    else if (isFaultName(name)) {
      const rule: FaultRule = { fault: name };
      for (const p of rest) applyParam(rule, p.key, p.value);
      out.faults.push(rule);
    }
  }
  return out;
}
