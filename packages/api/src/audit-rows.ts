/**
 * What an audit row is (routes/<area>/audit.ts write their area's rows, audit-trail.ts collects
 * them) and the helpers several areas' rows share. A row reads its record off the route's own
 * answer, after it; it names the fields it keeps, so a secret in an answer never reaches a record.
 */
import type { AuditAction, AuditRecord } from "@reelay/core/domain";
import { projectOf } from "@reelay/core/domain";
import type { Caller, ResolvedDeps } from "./api-deps.ts";

export type Answer = Record<string, unknown>;

export interface Acted {
  caller: Caller;
  /** The route's `{id}`, when it has one. */
  id: string;
  answer: Answer;
  deps: ResolvedDeps;
}

/** What one action records beside its actor; undefined: this call is not one to record. */
export type Recorded = Omit<AuditRecord, "id" | "at" | "actor" | "action">;
type AuditRow = {
  action: AuditAction;
  record: (acted: Acted) => Promise<Recorded | undefined>;
};
/** An area's audited routes, keyed like the route table (route-scopes.ts). */
export type AuditRows = Readonly<Record<string, AuditRow>>;

export function pick(answer: Answer, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.flatMap((f) => (f in answer ? [[f, answer[f]]] : [])));
}

export const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;

/**
 * A record of the answered object (its `id`, else the route's), in the project `projectOfActed`
 * reads.
 */
export function onAnswered(
  projectOfActed: (acted: Acted) => string | undefined,
  change: (answer: Answer) => Record<string, unknown>,
) {
  return async (acted: Acted): Promise<Recorded> => {
    const project = projectOfActed(acted);
    return {
      target: text(acted.answer.id) ?? acted.id,
      ...(project === undefined ? {} : { project }),
      change: change(acted.answer),
    };
  };
}

/** Only a retry by a key other than the one that made the job or batch is an action to record. */
export async function byAnotherKey(
  caller: Caller,
  found: { source: { apiKeyId?: string; project?: string } } | undefined,
): Promise<{ project?: string } | undefined> {
  if (found === undefined || found.source.apiKeyId === caller.keyId) return undefined;
  const project = projectOf(found.source);
  return project === undefined ? {} : { project };
}
