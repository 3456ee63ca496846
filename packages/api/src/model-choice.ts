/**
 * The model a create asks for, as the API reads it: resolved at the request's time with the
 * caller's key's `on_sunset`, and the Deprecation (RFC 9745) and Sunset (RFC 8594) headers of an
 * answer whose model is deprecated.
 */
import type { Context } from "hono";
import {
  defaultCatalog,
  type Job,
  type JobOptions,
  type ValidateOptions,
} from "@reelay/core/domain";
import type { ApiEnv, Caller, ResolvedDeps } from "./api-deps.ts";

/**
 * validate()'s options for a create by `caller`: the deployment's catalog, now, the key's
 * on_sunset, and the create's `fit`.
 */
export function validateOptionsOf(
  deps: Pick<ResolvedDeps, "catalog" | "now">,
  caller: Caller | undefined,
  options: Pick<JobOptions, "fit"> = {},
): ValidateOptions {
  return {
    ...(deps.catalog === undefined ? {} : { catalog: deps.catalog }),
    now: deps.now(),
    ...(caller?.onSunset === undefined ? {} : { onSunset: caller.onSunset }),
    fit: options.fit,
  };
}

/**
 * On the answer to a create of a job whose model asked for is deprecated or sunset (a successor
 * ran): `Deprecation: @<unix seconds>` from its deprecated_at, `Sunset: <HTTP-date>` from its
 * sunset_at, each when the catalog gives that date.
 */
export function setModelHeaders(
  c: Context<ApiEnv>,
  deps: Pick<ResolvedDeps, "catalog" | "now">,
  job: Pick<Job, "model" | "requestedModel">,
): void {
  const asked = (deps.catalog ?? defaultCatalog).resolve(
    job.requestedModel ?? job.model,
    deps.now(),
  );
  if (asked === undefined || asked.state === "active") return;
  const { deprecated_at, sunset_at } = asked.lifecycle;
  if (deprecated_at !== undefined)
    c.header("Deprecation", `@${Math.floor(Date.parse(deprecated_at) / 1000)}`);
  if (sunset_at !== undefined) c.header("Sunset", new Date(sunset_at).toUTCString());
}
