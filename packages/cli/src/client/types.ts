/** The shapes the CLI's commands share, as @reelay/client types them from the OpenAPI document. */
import type { Answer } from "@reelay/client";

export type { Job as JobView } from "@reelay/client";
export type { TerminalEvent } from "@reelay/core/domain";
/** GET /healthz; the local stack's `s3` (where drops go) is not in the OpenAPI document. */
export type Health = Answer<"/healthz", "get"> & { s3?: { endpoint: string; bucket: string } };
