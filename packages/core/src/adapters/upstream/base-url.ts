/**
 * The upstream base URL rule (docs/contract.md §5.3, §9.1): the version segment `/v1` ends the base URL and
 * every endpoint path is relative to it. Checked once, at construction or config time, so a wrong
 * URL is one clear error instead of a 404 on every later call.
 */
import { ReelayError, shownInput } from "../../domain/errors.ts";

export type BaseUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/** Normalises a base URL (drops one trailing slash) or says why it is not allowed. */
export function checkBaseUrl(raw: string): BaseUrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    return { ok: false, reason: "it is not an absolute URL" };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return {
      ok: false,
      reason: `its scheme must be http or https, not ${parsed.protocol.replace(":", "")}`,
    };
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return {
      ok: false,
      reason: "it must not carry credentials; the API key goes in its own setting",
    };
  }
  if (parsed.search !== "" || parsed.hash !== "") {
    return { ok: false, reason: "it must not carry a query or fragment" };
  }
  const path = parsed.pathname.replace(/\/$/, "");
  if (!path.endsWith("/v1")) {
    return { ok: false, reason: "its path must end in the version segment /v1" };
  }
  return { ok: true, url: `${parsed.origin}${path}` };
}

export function isAllowedBaseUrl(raw: string): boolean {
  return checkBaseUrl(raw).ok;
}

/** A base URL safe to show: credentials, query and fragment removed. */
function shown(raw: string): string {
  try {
    const url = new URL(raw.trim());
    return `${url.origin}${url.pathname}`;
  } catch {
    return shownInput(raw, 200);
  }
}

/** Normalised base URL, or ReelayError `invalid_base_url`. */
export function parseBaseUrl(raw: string, path = "upstream base URL"): string {
  const result = checkBaseUrl(raw);
  if (result.ok) return result.url;
  throw new ReelayError(
    "invalid_base_url",
    `The ${path} ${shown(raw)} is not allowed: ${result.reason} (for example https://api.example.com/v1).`,
    { path },
  );
}
