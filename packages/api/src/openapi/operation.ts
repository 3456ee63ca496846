/** The shape of one documented route (each area's routes/<area>/operations.ts holds its own). */
import type * as z from "zod";
import type { ErrorCode } from "@reelay/core/domain";

export interface ErrorCase {
  status: number;
  codes: ErrorCode[];
  when: string;
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description: string;
  schema: Record<string, unknown>;
  example?: string;
}

interface RequestBody {
  contentType: string;
  schema: z.ZodType | Record<string, unknown>;
  example: unknown;
}

export interface Operation {
  summary: string;
  description: string;
  tag: string;
  /** Bearer key required (every /v1 route). */
  auth: boolean;
  parameters?: Parameter[];
  request?: RequestBody & {
    /** Other forms the same route takes, each under its own content type. */
    alternatives?: RequestBody[];
  };
  response: {
    status: number;
    contentType: string;
    schema?: z.ZodType;
    example: unknown;
    description: string;
    /**
     * The route takes `?dry_run=true`, answered with reelay's own CreateDryRun: named beside this
     * answer (`x-dry-run`), not in its content, so a typed client's create keeps the contract's type.
     */
    dryRun?: true;
    /** Response headers worth naming (a redirect's Location). */
    headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
  };
  errors: ErrorCase[];
}
