import type { ReferenceKind, VideoModelSpec } from "../catalog/types.ts";
import type { FrameImage, InputReference } from "../contract/schemas.ts";
import { type Issues, listValues, shown } from "./issues.ts";
import { checkUrl } from "./url.ts";

/** §2.3 table: which family each reference_type value belongs to. */
const REFERENCE_TYPE_OWNERS: Record<string, string> = {
  asset: "mu family (multi-image)",
  style: "mu family (multi-image)",
  subject: "eta family (multi-image)",
  background: "eta family (multi-image)",
  feature: "lambda family, type=video_url",
  base: "lambda family, type=video_url",
};

/** File-purpose values belong to model_specific_config.usage, never to reference_type (§2.3). */
const FILE_PURPOSES = new Set([
  "reference",
  "firstframe",
  "lastframe",
  "first_frame",
  "last_frame",
]);

const KIND_OF: Record<InputReference["type"], ReferenceKind> = {
  image_url: "image",
  video_url: "video",
  audio_url: "audio",
};

/** §2.2 and §8: at most one first and one last frame; last_frame needs a first where stated. */
export function checkFrames(
  frames: readonly FrameImage[],
  spec: VideoModelSpec,
  issues: Issues,
): void {
  const seen = { first_frame: 0, last_frame: 0 };
  frames.forEach((frame, index) => {
    seen[frame.frame_type] += 1;
    if (seen[frame.frame_type] === 2) {
      issues.error(
        `frame_images[${index}].frame_type`,
        "duplicate_frame",
        `\`frame_images\` may hold at most one \`${frame.frame_type}\`; item ${index} is a second one.`,
      );
    }
    checkUrl(frame.image_url.url, `frame_images[${index}].image_url.url`, true, issues);
  });
  if (seen.last_frame > 0 && seen.first_frame === 0 && spec.frames.lastRequiresFirst) {
    issues.error(
      "frame_images",
      "last_frame_requires_first",
      `${spec.code}: \`last_frame\` requires a \`first_frame\` in the same request (§4.8).`,
    );
  }
}

/** §2.2 "Do not use frame images together with the reference-semantics fields of input_references". */
export function checkFramesWithReferences(
  refs: readonly InputReference[],
  spec: VideoModelSpec,
  issues: Issues,
): void {
  const policy = spec.references?.withFrames ?? "unspecified";
  const semantic = refs.some(
    (ref) => ref.object_id !== undefined || ref.reference_type !== undefined,
  );
  if (policy === "not_allowed" || (policy === "unspecified" && semantic)) {
    const why =
      policy === "not_allowed"
        ? `${spec.code} does not take both (§4.8)`
        : "frame images must not be used with the reference-semantics fields object_id / reference_type (§2.2)";
    issues.error(
      "input_references",
      "frames_with_references",
      `\`frame_images\` and \`input_references\` in one request: ${why}. Send one kind of material.`,
    );
  } else {
    issues.warn(
      "input_references",
      "frames_with_references_unusual",
      `\`frame_images\` and \`input_references\` in one request: ${policy === "discouraged" ? `${spec.code} generally does not mix them (§4.8)` : "the contract selects one mode from the material (§1.7)"}; it is treated as reference-to-video.`,
    );
  }
}

function checkItemUrls(ref: InputReference, path: string, issues: Issues): void {
  const field = ref.type;
  for (const other of ["image_url", "video_url", "audio_url"] as const) {
    if (other !== field && ref[other] !== undefined) {
      issues.error(
        `${path}.${other}`,
        "field_not_for_type",
        `\`${path}.${other}\` does not belong to an item of type \`${field}\`; give \`${field}\` only.`,
      );
    }
  }
  const url = field === "image_url" ? ref.image_url?.url : ref[field];
  if (url === undefined) {
    const shape = field === "image_url" ? "an object with `url`" : "a URL string";
    issues.error(
      `${path}.${field}`,
      "missing_field",
      `\`${path}.${field}\` is required when type is \`${field}\`; it must be ${shape}.`,
    );
    return;
  }
  // §2.4 lists asset:// for image_url.url and video_url only.
  checkUrl(
    url,
    field === "image_url" ? `${path}.image_url.url` : `${path}.${field}`,
    field !== "audio_url",
    issues,
    field !== "audio_url",
  );
}

function checkSemantics(
  ref: InputReference,
  kind: ReferenceKind,
  path: string,
  spec: VideoModelSpec,
  issues: Issues,
): void {
  const rules = spec.references;
  if (ref.object_id !== undefined && rules !== undefined) {
    if (rules.objectId === "not_used") {
      issues.error(
        `${path}.object_id`,
        "object_id_not_used",
        `\`${path}.object_id\`: ${spec.code} does not use object_id (§4.8); remove it.`,
      );
    } else if (rules.objectId === "unusual") {
      issues.warn(
        `${path}.object_id`,
        "object_id_unusual",
        `\`${path}.object_id\` is usually omitted for ${spec.code} (§4.8).`,
      );
    } else if (kind !== "image") {
      issues.warn(
        `${path}.object_id`,
        "object_id_unusual",
        `\`${path}.object_id\` mainly acts on items with type image_url (§2.3).`,
      );
    }
  }
  const value = ref.reference_type;
  if (value === undefined) return;
  const where = `${path}.reference_type`;
  if (FILE_PURPOSES.has(value.toLowerCase())) {
    issues.error(
      where,
      "reference_type_is_file_purpose",
      `\`${where}\` "${value}" is a file-purpose value; file purpose (Reference, FirstFrame, LastFrame) belongs in model_specific_config.usage where a model takes it, and must not be passed as reference_type (§2.3).`,
    );
    return;
  }
  const allowed = rules?.referenceTypes[kind] ?? [];
  if (!allowed.includes(value)) {
    const owner = REFERENCE_TYPE_OWNERS[value];
    const here =
      allowed.length === 0
        ? `${spec.code} takes no reference_type on ${kind} items`
        : `${spec.code} takes ${listValues(allowed)} on ${kind} items`;
    const whose =
      owner === undefined
        ? `${shown(value)} is not a reference_type value (§2.3 lists ${listValues(Object.keys(REFERENCE_TYPE_OWNERS))})`
        : `"${value}" applies to the ${owner}`;
    issues.error(
      where,
      "reference_type_not_allowed",
      `\`${where}\`: ${whose}; ${here}. The upstream would ignore it and you would pay for a result without it.`,
    );
  }
}

/** §2.3, §2.4 and the per-family reference rules of §4.8. */
export function checkReferences(
  refs: readonly InputReference[],
  spec: VideoModelSpec,
  issues: Issues,
): void {
  const rules = spec.references;
  const counts: Record<ReferenceKind, number> = { image: 0, video: 0, audio: 0 };
  refs.forEach((ref, index) => {
    const path = `input_references[${index}]`;
    const kind = KIND_OF[ref.type];
    counts[kind] += 1;
    checkItemUrls(ref, path, issues);
    if (rules !== undefined && rules.kinds[kind] === undefined) {
      const taken = Object.keys(rules.kinds).join(", ");
      issues.error(
        `${path}.type`,
        "reference_kind_not_allowed",
        `\`${path}.type\` \`${ref.type}\`: ${spec.code} takes ${taken} references only.`,
      );
    }
    checkSemantics(ref, kind, path, spec, issues);
  });
  if (rules === undefined) return;
  for (const [kind, count] of Object.entries(rules.kinds) as [
    ReferenceKind,
    NonNullable<(typeof rules.kinds)[ReferenceKind]>,
  ][]) {
    const n = counts[kind];
    const quote = count.quote === undefined ? "" : ` (contract: "${count.quote}")`;
    if (count.min !== undefined && n < count.min) {
      issues.report(
        count.strength,
        "input_references",
        ["reference_count_not_allowed", "reference_count_unusual"],
        `${spec.code} needs at least ${count.min} ${kind} reference${count.min === 1 ? "" : "s"}, got ${n}${quote}.`,
      );
    }
    if (count.max !== undefined && n > count.max) {
      issues.report(
        count.strength,
        "input_references",
        ["reference_count_not_allowed", "reference_count_unusual"],
        `${spec.code} takes at most ${count.max} ${kind} reference${count.max === 1 ? "" : "s"}, got ${n}${quote}.`,
      );
    }
  }
  if (rules.audioOnlyNotAllowed === true && refs.length > 0 && counts.audio === refs.length) {
    issues.error(
      "input_references",
      "audio_only_reference",
      `${spec.code}: an audio-only reference is not allowed (§4.8); add an image or video reference.`,
    );
  }
}
