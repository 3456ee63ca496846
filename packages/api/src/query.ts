/**
 * A route's query as a zod schema beside its handler, checked before the handler runs: the first
 * problem (in the schema's key order) is a 400 with a stable code, its message and the parameter
 * as its path; the handler reads what the schema made of the query with `c.req.valid("query")`. A
 * parameter given twice counts once, with its first value (as `c.req.query(name)` reads it).
 */
import type { MiddlewareHandler } from "hono";
import * as z from "zod";
import { type ErrorCode, isReelayError, MAX_PAGE_SIZE, ReelayError } from "@reelay/core/domain";
import type { ApiEnv } from "./api-deps.ts";

/** A parameter's issue may name its own code (`params.code`); the route's default otherwise. */
function queryError(issue: z.core.$ZodIssue, code: ErrorCode): ReelayError {
  const own = (issue as { params?: { code?: ErrorCode } }).params?.code;
  return new ReelayError(own ?? code, issue.message, {
    status: 400,
    path: issue.path.map(String).join("."),
  });
}

/** Checks the query against `schema`; a bad one is 400 `code` (invalid_query unless given). */
export function validQuery<S extends z.ZodType>(
  schema: S,
  code: ErrorCode = "invalid_query",
): MiddlewareHandler<ApiEnv, string, { out: { query: z.output<S> } }> {
  return async (c, next) => {
    const parsed = schema.safeParse(c.req.query());
    if (!parsed.success) throw queryError(parsed.error.issues[0] as z.core.$ZodIssue, code);
    c.req.addValidatedData("query", parsed.data as object);
    await next();
  };
}

/** `?dry_run`, `?dry_run=true`: check and answer what would be made, making nothing. */
export const dryRunQuery = z.object({
  dry_run: z
    .enum(["true", "false", ""], { error: "dry_run must be true or false." })
    .optional()
    .transform((raw) => raw === "true" || raw === ""),
});

/** `limit`: a page size from 1 to MAX_PAGE_SIZE. */
export const limitParam = z
  .string()
  .regex(/^\d{1,4}$/, `limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`)
  .transform(Number)
  .refine(
    (n) => n >= 1 && n <= MAX_PAGE_SIZE,
    `limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`,
  )
  .optional();

/** One of `allowed`, the refusal naming what was given. */
export function oneOfParam<const T extends string>(name: string, allowed: readonly T[]) {
  return z
    .enum(allowed as readonly [T, ...T[]], {
      error: (issue) =>
        `${name} must be one of ${allowed.join(", ")} (got "${String(issue.input).slice(0, 40)}").`,
    })
    .optional();
}

/**
 * A parameter read by a parser that throws a ReelayError (a rule of core's domain): its code,
 * message and path become the query's refusal.
 */
export function parsedBy<T>(parse: (raw: string) => T) {
  return z
    .string()
    .transform((raw, ctx) => {
      try {
        return parse(raw);
      } catch (error) {
        if (!isReelayError(error)) throw error;
        ctx.issues.push({
          code: "custom",
          message: error.message,
          input: raw,
          params: { code: error.code },
        });
        return z.NEVER;
      }
    })
    .optional();
}
