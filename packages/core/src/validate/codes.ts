/**
 * Every code validate() can report, with its meaning. These are stable: the API, the CLI and
 * rejected drops show them, and scripts branch on them. Add new ones; never rename.
 */
export const ValidationCodes = {
  invalid_body: "The request body is not a JSON object.",
  invalid_type: "A field has the wrong JSON type (e.g. a string where a number is expected).",
  missing_field: "A required field is absent.",
  invalid_value: "A field's value is not one of the values the contract allows.",
  out_of_range: "A number is below or above what the field accepts.",
  too_few_items: "An array has fewer items than the contract allows.",
  too_many_items: "An array has more items than the contract allows.",
  unknown_field: "Warning: a field the contract does not define; it is left out of the request.",
  unknown_model: "The model code is not in the catalog; the message lists close matches.",
  model_kind_mismatch:
    "A video model used with the image form, or an image model with the video form.",
  mode_not_supported: "The request material selects a mode (§1.7) the model does not offer.",
  mode_unusual: "Warning: the contract says the model generally does not use this mode.",
  prompt_required: "prompt is required (no material given, or the model requires one).",
  prompt_recommended: "Warning: a prompt is recommended even when material is given (§2.1).",
  invalid_url: "A material URL is not a public https:// URL or asset://vidast_<id> where allowed.",
  asset_url_not_allowed: "asset:// is given in a field §2.4 does not list.",
  duration_not_allowed: "duration_sec is outside what the model allows.",
  duration_unusual: "Warning: duration_sec is outside what the model commonly takes.",
  duration_defaulted:
    "Warning: duration_sec was absent and the global default 5 s does not fit; a model value was used.",
  resolution_not_allowed: "resolution is not one the model offers.",
  resolution_unusual: "Warning: resolution is not one the model commonly or recommendedly uses.",
  aspect_ratio_not_allowed: "aspect_ratio is not one the model offers.",
  aspect_ratio_unusual:
    "Warning: aspect_ratio is not a common value for the model (or should not be forced).",
  image_size_not_allowed: "image_config.image_size is not one the image model offers.",
  image_size_unusual: "Warning: image_config.image_size is not one the image model commonly uses.",
  audio_unusual: "Warning: generate_audio is true for a model that usually makes silent video.",
  duplicate_frame: "More than one first_frame or more than one last_frame.",
  last_frame_requires_first: "last_frame given without first_frame on a model that requires both.",
  last_frame_unsupported: "last_frame given to a model that takes a first frame only.",
  frames_with_references:
    "frame_images and input_references together where the contract forbids it.",
  frames_with_references_unusual:
    "Warning: frame_images and input_references together, which the contract does not describe or discourages.",
  field_not_for_type: "A reference item carries a URL field that does not match its type.",
  reference_kind_not_allowed:
    "A reference of a kind (image, video, audio) the model does not take.",
  reference_count_not_allowed: "Too many or too few references of a kind for the model.",
  reference_count_unusual:
    "Warning: the number of references of a kind is outside what is recommended.",
  audio_only_reference: "Every reference is audio, which the model does not allow.",
  reference_type_not_allowed:
    "reference_type value not used by this model's family or item type (§2.3).",
  reference_type_is_file_purpose:
    "A file-purpose value (Reference, FirstFrame, LastFrame) was given as reference_type.",
  object_id_not_used: "object_id given to a model whose contract says it is not used.",
  object_id_unusual: "Warning: object_id is usually omitted for this model or item type.",
  config_key_not_allowed: "A model_specific_config key outside the model's allow-list.",
  config_key_unsupported: "model_specific_config.logo_add, which the contract marks unsupported.",
  config_value_invalid:
    "A model_specific_config value of the wrong type or outside its listed values.",
  config_task_mismatch:
    "Warning: model_specific_config.task names a different mode than the material selects.",
  modalities_missing_image: "modalities does not contain `image`.",
  stream_not_supported: "stream is true; image generation must not stream.",
  custom_size_unsupported: "image_config.custom_size is unsupported; use image_size.",
  request_too_large:
    "The request (as JSON) is larger than a job can hold (256 KiB); usually a very long prompt or too many messages.",
  internal_error: "validate() itself failed; please report it. The request is refused.",
} as const;

export type ValidationCode = keyof typeof ValidationCodes;
