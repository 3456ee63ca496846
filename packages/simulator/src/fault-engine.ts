import type { FaultName, FaultRule } from "./types.ts";

/** What kind of request is being answered; a rule's `on` must name one of these tags. */
export type RequestTag = "create" | "poll" | "download" | "image" | "models";

/** A rule together with the key its `times` budget is counted under. */
export interface KeyedRule {
  rule: FaultRule;
  key: string;
}

export const TASK_FAULTS: ReadonlySet<FaultName> = new Set(["task_fail", "never_finish"]);
export const DOWNLOAD_FAULTS: ReadonlySet<FaultName> = new Set([
  "download_error",
  "truncate",
  "truncated_file",
  "undecodable_file",
]);

/**
 * Whether a rule applies to a request with `tags` about `model`; without `on`, to its natural
 * requests.
 */
function matches(rule: FaultRule, tags: readonly RequestTag[], model: string | undefined): boolean {
  if (rule.model !== undefined && rule.model !== model) return false;
  const on = rule.on;
  if (on === "any") return true;
  if (on !== undefined) return tags.includes(on);
  if (TASK_FAULTS.has(rule.fault)) return tags.includes("create");
  if (DOWNLOAD_FAULTS.has(rule.fault)) return tags.includes("download");
  return !tags.includes("download");
}

/**
 * Decides whether rules fire. `times` is counted per key, so a rule from a header or a prompt directive
 * can say "fail the first two tries" and the third identical try goes through.
 */
export class FaultEngine {
  private readonly used = new Map<string, number>();
  private readonly injected: Record<string, number> = {};

  constructor(private readonly random: () => number = Math.random) {}

  /** True (and counted) when the rule fires now. */
  fire(k: KeyedRule): boolean {
    const used = this.used.get(k.key) ?? 0;
    if (k.rule.times !== undefined && used >= k.rule.times) return false;
    const p = k.rule.probability ?? 1;
    if (p < 1 && !(this.random() < p)) return false;
    this.used.set(k.key, used + 1);
    this.injected[k.rule.fault] = (this.injected[k.rule.fault] ?? 0) + 1;
    return true;
  }

  /**
   * The first rule of `names` that applies to a request with `tags` and fires; `model` is the
   * request's (a create's, or its task's), undefined when it has none.
   */
  first(
    rules: readonly KeyedRule[],
    tags: readonly RequestTag[],
    names: ReadonlySet<FaultName>,
    model?: string,
  ): FaultRule | undefined {
    for (const k of rules) {
      if (names.has(k.rule.fault) && matches(k.rule, tags, model) && this.fire(k)) return k.rule;
    }
    return undefined;
  }

  injectedCounts(): Record<string, number> {
    return { ...this.injected };
  }

  clear(): void {
    this.used.clear();
    for (const key of Object.keys(this.injected)) delete this.injected[key];
  }
}
