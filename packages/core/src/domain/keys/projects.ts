/**
 * Projects: every key belongs to one, and what a key makes (jobs, batches, webhook subscribers)
 * belongs to its key's project, seen by every key of it. A key made without `project` is alone in
 * a project named by its own id, so a record made before projects (no `project`, only its key id)
 * is in its key's project, and nothing stored needs rewriting.
 */
import { ReelayError } from "../errors.ts";
import { shown } from "../validate/issues.ts";

/**
 * Lower case, digits and dashes: never the shape of a key id (`key_...`, every key's own project)
 * nor `local`, the deployment key's caller id, so no named project can take another's records.
 */
const PROJECT_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
const RESERVED = new Set(["local"]);

/** `project` of a key's create. */
export function parseProject(raw: unknown, path = "project"): string {
  if (typeof raw === "string" && PROJECT_NAME.test(raw) && !RESERVED.has(raw)) return raw;
  throw new ReelayError(
    "invalid_request",
    `${path} must be 1 to 63 lower-case letters, digits and dashes (not "local"), got ${shown(raw, 70)}.`,
    { status: 400, path },
  );
}

/** The project a record belongs to: its own, else (made before projects) its key's own project. */
export function projectOf(source: { project?: string; apiKeyId?: string }): string | undefined {
  return source.project ?? source.apiKeyId;
}
