/**
 * The shape of a model's rules, written so a family file reads side by side with §4.8 of the
 * service contract. `strength` carries the contract's wording: hard words (must, only, exactly,
 * not allowed, unsupported, requires, at most N) are "hard" and refuse a request; soft words
 * (commonly, usually, about, recommended, generally, normally) are "soft" and only warn.
 */

export type Kind = "video" | "image";
export type VideoMode = "text" | "first_frame" | "first_last_frame" | "reference" | "video_edit";
export type ImageMode = "text" | "edit";
type Strength = "hard" | "soft";
/** "discouraged": the contract says the mode is generally unused; it goes on with a warning. */
type Support = "allowed" | "discouraged";
export type ReferenceKind = "image" | "video" | "audio";

interface RuleBase {
  strength: Strength;
  /** The rule applies only in these modes; everywhere when absent. */
  modes?: VideoMode[];
  /** The rule applies only at these resolutions; everywhere when absent. */
  resolutions?: string[];
  /** The contract's words, shown in messages. */
  quote?: string;
}

/** Allowed values; an empty soft set means "any value is unusual" (e.g. "should not be forced"). */
export interface SetRule<T extends string | number> extends RuleBase {
  values: T[];
}

interface RangeRule extends RuleBase {
  min: number;
  max: number;
}

export type DurationRule = SetRule<number> | RangeRule;

interface CountRule {
  min?: number;
  max?: number;
  strength: Strength;
  quote?: string;
}

export interface ReferenceRules {
  /** Reference kinds the model takes, each with its count bounds; a missing kind is refused. */
  kinds: Partial<Record<ReferenceKind, CountRule>>;
  /** "not_used": refused; "unusual": warns; "used" / "allowed": fine. */
  objectId: "used" | "allowed" | "unusual" | "not_used";
  /** reference_type values this model accepts, per item kind (§2.3 table). */
  referenceTypes: Partial<Record<ReferenceKind, string[]>>;
  /** Mixing frame_images with input_references: refused, warned, or unstated (§2.2 applies). */
  withFrames: "not_allowed" | "discouraged" | "unspecified";
  /** True when a request whose references are all audio is refused (beta). */
  audioOnlyNotAllowed?: boolean;
  quote?: string;
}

export interface ConfigKeySpec {
  /** "scalar": string, number or boolean (the contract names the key but not its type). */
  type: "boolean" | "integer" | "string" | "scalar";
  values?: string[];
  quote?: string;
}

/**
 * Where a model stands in its life, as the operator tells it (a catalog file's entry or
 * REELAY_MODEL_LIFECYCLE): ISO times, and the model that replaces it. A model with a `sunset_at`
 * counts as deprecated until then, whether or not `deprecated_at` is given.
 */
export interface ModelLifecycle {
  deprecated_at?: string;
  /** From this time on a create is refused `model_sunset` (or, where the key opted in, runs the successor). */
  sunset_at?: string;
  successor?: string;
}

interface ModelBase extends ModelLifecycle {
  /** The exact model code or, when match is "prefix", the code prefix (lambda-, mu-). */
  code: string;
  match?: "exact" | "prefix";
  family: string;
  /** Why the entry looks the way it does, where the contract is thin. */
  note?: string;
  /** model_specific_config allow-list; every other key is refused. */
  config: Record<string, ConfigKeySpec>;
}

export interface VideoModelSpec extends ModelBase {
  kind: "video";
  /** Modes the model takes; a mode that is absent is refused. */
  modes: Partial<Record<VideoMode, Support>>;
  /** True when the model needs a prompt even with material (alpha-2.7-videoedit). */
  requiresPrompt?: boolean;
  resolutions: SetRule<string>[];
  durations: DurationRule[];
  /** Model default replacing the global 5 s (gamma: "default understood as 8"). */
  defaultDuration?: { value: number; quote?: string };
  aspectRatios: SetRule<string>[];
  audio: { default: boolean; support: "supported" | "unusual"; quote?: string };
  frames: { lastRequiresFirst: boolean; quote?: string };
  /** Absent when the model takes no input_references. */
  references?: ReferenceRules;
}

export interface ImageModelSpec extends ModelBase {
  kind: "image";
  imageSizes: SetRule<string>[];
  aspectRatios: SetRule<string>[];
  referenceImages: CountRule;
}

export type ModelSpec = VideoModelSpec | ImageModelSpec;

/** A name as a create gives it, resolved once: the alias followed and the lifecycle read at `now`. */
export interface ModelResolution {
  /** The name asked for (an alias or the model code itself). */
  requested: string;
  /** The model code the name stands for. */
  model: string;
  spec: ModelSpec;
  /** `deprecated` from deprecated_at (or while a sunset_at is ahead); `sunset` from sunset_at on. */
  state: "active" | "deprecated" | "sunset";
  lifecycle: ModelLifecycle;
}

export interface Catalog {
  /** The model for a code: exact entries first, then prefix entries (lambda-, mu-). Aliases are not codes. */
  get(code: string): ModelSpec | undefined;
  /** A model code or an alias, resolved at `now`; undefined when it names neither. */
  resolve(name: string, now: Date): ModelResolution | undefined;
  /** Alias to model code: the built-in ones with REELAY_MODEL_ALIASES over them. */
  aliases(): Record<string, string>;
  list(kind?: Kind): ModelSpec[];
  /** Codes close to a mistyped one, best first, for "Did you mean ...?". */
  closeMatches(code: string, limit?: number): string[];
}
