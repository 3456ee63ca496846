/**
 * The readers config.ts checks its settings with, each given the environment and one setting's
 * name: a bad value is an `invalid_config` ReelayError naming the setting. Only config.ts calls
 * them, so every setting is still read in one place.
 */
import { readFileSync } from "node:fs";
import { ReelayError, shownInput } from "../domain/errors.ts";

export type Env = Record<string, string | undefined>;

export function nonEmpty(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === "" ? undefined : raw.trim();
}

/** One of `allowed` (compared without case), or `fallback` when unset. */
export function oneOf<T extends string>(
  env: Env,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const raw = nonEmpty(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  throw new ReelayError(
    "invalid_config",
    `${name} must be one of ${allowed.join(", ")}, got ${shownInput(raw, 40)}.`,
    { path: name },
  );
}

/**
 * A setting that holds JSON, or the path of a file holding it: `opening` tells them apart ("[" for
 * an array, "{" for an object), and `parse` checks the text, naming where it came from.
 */
export function jsonOrFile<T>(
  env: Env,
  name: string,
  opening: "[" | "{",
  parse: (text: string, origin: string) => T,
): T | undefined {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return undefined;
  if (raw.startsWith(opening)) return parse(raw, name);
  let text: string;
  try {
    text = readFileSync(raw, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? "unreadable";
    const what = opening === "[" ? "a JSON array" : "a JSON object";
    throw new ReelayError(
      "invalid_config",
      `${name} is neither ${what} nor a readable file (${reason}: ${raw}).`,
      { path: name },
    );
  }
  return parse(text, `${name} file ${raw}`);
}

/** One address, checked only for its shape: SNS sends the confirmation that proves it. */
export function email(env: Env, name: string): string | undefined {
  const raw = nonEmpty(env, name);
  if (raw === undefined || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(raw)) return raw;
  throw new ReelayError(
    "invalid_config",
    `${name} must be one email address, got ${shownInput(raw, 60)}.`,
    { path: name },
  );
}
