/**
 * `reelay audit [--action A] [--from TIME] [--to TIME] [--limit N] [--cursor C] [--json]`: the audit
 * log of admin and webhook actions, newest first (GET /v1/audit; an admin key). A stored key with
 * the admin scope sees its project's records; the deployment's own key every one.
 */
import { AUDIT_ACTIONS, type AuditRecord } from "@reelay/core/domain";
import { table } from "../client/format.ts";
import { openSession, reportFailures } from "../client/session.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

const ACTIONS: readonly string[] = AUDIT_ACTIONS;

function changeText(change: Record<string, unknown>): string {
  const text = Object.entries(change)
    .map(([name, value]) => `${name}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" ");
  return text === "" ? "-" : text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function render(records: readonly AuditRecord[]): string {
  if (records.length === 0) return "no audit records\n";
  return table([
    ["TIME", "ACTION", "ACTOR", "PROJECT", "TARGET", "CHANGE"],
    ...records.map((r) => [
      r.at,
      r.action,
      r.actor.key_id,
      r.project ?? "-",
      r.target,
      changeText(r.change),
    ]),
  ]);
}

export async function runAudit(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: {
      action: { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
      limit: { type: "string" },
      cursor: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}".`);
  if (values.action !== undefined && !ACTIONS.includes(values.action))
    throw new UsageError(`--action must be one of ${ACTIONS.join(", ")}, got "${values.action}".`);
  const query: Record<string, string> = {};
  for (const name of ["action", "from", "to", "limit", "cursor"] as const) {
    const value = values[name];
    if (value !== undefined) query[name] = value;
  }
  return reportFailures(io, "audit", values.json, async () => {
    const { client } = await openSession(io);
    const page = await client.audit(query);
    io.stdout(values.json ? `${JSON.stringify(page)}\n` : render(page.data));
    if (!values.json && page.next_cursor !== null)
      io.stderr(`more records: reelay audit --cursor ${page.next_cursor}\n`);
    return 0;
  });
}
