/**
 * The name a request gives for its model, resolved once as the request is checked: an alias is
 * followed to its model, a deprecated model is taken with a warning, and a model past its sunset is
 * refused `model_sunset`, or replaced by its successor where the caller's key opted in.
 */
import type { Issues } from "../validate/issues.ts";
import type { Catalog, ModelLifecycle, ModelResolution } from "./types.ts";

/** What a key does with a model past its sunset: refuse the create (the default), or run the successor. */
export type OnSunset = "refuse" | "successor";
export const ON_SUNSET_CHOICES = ["refuse", "successor"] as const satisfies readonly OnSunset[];

export interface ModelChoiceOptions {
  /** The time the lifecycle is read at; the current time when absent. */
  now?: Date;
  onSunset?: OnSunset;
}

/** What resolving the name decided, beside the model now in the request. */
export interface ModelChoice {
  /** The name the request gave, when the model run is another (an alias, or a successor). */
  requestedModel?: string;
  /** The model asked for and its lifecycle, when it is deprecated or sunset (the Deprecation and Sunset headers). */
  deprecation?: ModelLifecycle & { model: string };
}

function day(iso: string | undefined): string {
  return iso === undefined ? "" : iso.slice(0, 10);
}

function deprecatedMessage(resolution: ModelResolution): string {
  const { model, lifecycle } = resolution;
  const since =
    lifecycle.deprecated_at === undefined ? "" : ` since ${day(lifecycle.deprecated_at)}`;
  const until =
    lifecycle.sunset_at === undefined
      ? ""
      : `; it takes no new jobs from ${day(lifecycle.sunset_at)}`;
  const move = lifecycle.successor === undefined ? "" : `; move to ${lifecycle.successor}`;
  return `${model} is deprecated${since}${until}${move}.`;
}

function sunsetMessage(resolution: ModelResolution): string {
  const { model, lifecycle } = resolution;
  const next =
    lifecycle.successor === undefined
      ? "no successor is named"
      : `use its successor ${lifecycle.successor}`;
  return `${model} was sunset on ${day(lifecycle.sunset_at)} and takes no new jobs; ${next}.`;
}

/**
 * `input` with its `model` replaced by the model to run, and the choice made. A body that is not an
 * object, or names no model the catalog knows, comes back as it was (validate() reports it).
 */
export function resolveRequestModel(
  input: unknown,
  catalog: Catalog,
  options: ModelChoiceOptions,
  issues: Issues,
): { input: unknown; choice: ModelChoice } {
  const body = input as Record<string, unknown> | null;
  const name = typeof body === "object" && body !== null ? body.model : undefined;
  if (typeof name !== "string") return { input, choice: {} };
  const now = options.now ?? new Date();
  const resolution = catalog.resolve(name, now);
  if (resolution === undefined) return { input, choice: {} };
  let model = resolution.model;
  const deprecation = { model, ...resolution.lifecycle };
  if (resolution.state === "deprecated")
    issues.warn("model", "model_deprecated", deprecatedMessage(resolution));
  const successor = resolution.lifecycle.successor;
  if (resolution.state === "sunset") {
    const next = successor === undefined ? undefined : catalog.resolve(successor, now);
    if (options.onSunset !== "successor" || next === undefined || next.state === "sunset") {
      issues.error("model", "model_sunset", sunsetMessage(resolution));
    } else {
      model = next.model;
      issues.warn(
        "model",
        "model_substituted",
        `${resolution.model} was sunset on ${day(resolution.lifecycle.sunset_at)}; its successor ${model} runs instead (the key's on_sunset).`,
      );
    }
  }
  return {
    input: { ...body, model },
    choice: {
      ...(model === name ? {} : { requestedModel: name }),
      ...(resolution.state === "active" ? {} : { deprecation }),
    },
  };
}
