import type { ReferenceRules } from "../types.ts";

/**
 * Reference rules where the contract names images and videos but gives no counts, object_id or
 * reference_type rules: both kinds taken, object_id allowed, no reference_type values.
 */
export function imageAndVideoReferences(quote?: string): ReferenceRules {
  return {
    kinds: { image: { strength: "soft" }, video: { strength: "soft" } },
    objectId: "allowed",
    referenceTypes: {},
    withFrames: "unspecified",
    ...(quote === undefined ? {} : { quote }),
  };
}
