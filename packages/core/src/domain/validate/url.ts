import { classifyAddress } from "../net/address.ts";
import { UPLOAD_SCHEME, uploadIdOf } from "../uploads/upload.ts";
import type { Issues } from "./issues.ts";

const ASSET = /^asset:\/\/vidast_[A-Za-z0-9_-]+$/;

/**
 * Hosts that are never public: local names, and addresses the SSRF guard would refuse (loopback,
 * private, link-local, metadata, ... including IPv6 forms that carry such an IPv4 address).
 */
function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host.endsWith(".local") ||
    host.endsWith(".internal")
  )
    return true;
  const kind = classifyAddress(host);
  if (kind !== "invalid") return kind !== "public";
  return !host.includes(".");
}

/**
 * reelay's own `upload://upl_<ulid>` references (image and video material; the API checks that the
 * upload exists and is the caller's, and the upstream is given a presigned link of it).
 */
function checkUploadRef(url: string, path: string, allowUpload: boolean, issues: Issues): void {
  if (!allowUpload) {
    issues.error(
      path,
      "invalid_url",
      `\`${path}\` must be a public https:// URL; upload:// references are taken for image and video material only.`,
    );
  } else if (uploadIdOf(url) === undefined) {
    issues.error(
      path,
      "invalid_url",
      `\`${path}\`: "${url.slice(0, 80)}" is not of the form upload://upl_<id>.`,
    );
  }
}

/**
 * Material URLs must be public `https://` (§2.2, §2.3, §2.6), or `asset://vidast_<id>` in the
 * fields §2.4 lists, or an `upload://` reference to image or video material. Anything else would
 * fail upstream after the user has queued (and maybe paid).
 */
export function checkUrl(
  url: string,
  path: string,
  allowAsset: boolean,
  issues: Issues,
  allowUpload = true,
): void {
  if (url.startsWith(UPLOAD_SCHEME)) {
    checkUploadRef(url, path, allowUpload, issues);
    return;
  }
  const allowedText = allowAsset
    ? "a public https:// URL or asset://vidast_<asset_id>"
    : "a public https:// URL";
  if (url.startsWith("asset:")) {
    if (!allowAsset) {
      issues.error(
        path,
        "asset_url_not_allowed",
        `\`${path}\` must be a public https:// URL; asset:// ids are accepted only in frame_images[].image_url.url, input_references[].image_url.url and input_references[].video_url (§2.4).`,
      );
    } else if (!ASSET.test(url)) {
      issues.error(
        path,
        "invalid_url",
        `\`${path}\` must be ${allowedText}; "${url.slice(0, 80)}" is not of the form asset://vidast_<asset_id>.`,
      );
    }
    return;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    issues.error(
      path,
      "invalid_url",
      `\`${path}\` must be ${allowedText}; "${url.slice(0, 80)}" is not a URL.`,
    );
    return;
  }
  if (parsed.protocol !== "https:") {
    issues.error(
      path,
      "invalid_url",
      `\`${path}\` must be ${allowedText}; the ${parsed.protocol} scheme is not accepted.`,
    );
  } else if (parsed.username !== "" || parsed.password !== "") {
    issues.error(
      path,
      "invalid_url",
      `\`${path}\` must be ${allowedText} without user name or password.`,
    );
  } else if (isPrivateHost(parsed.hostname)) {
    issues.error(
      path,
      "invalid_url",
      `\`${path}\` must be ${allowedText}; ${parsed.hostname} is not a public address.`,
    );
  }
}
