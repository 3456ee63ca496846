import type { ConfigKeySpec } from "../catalog/types.ts";
import { isPlainObject, type Issues, listValues, typeName } from "./issues.ts";

function fits(spec: ConfigKeySpec, value: unknown): boolean {
  const typeOk =
    spec.type === "boolean"
      ? typeof value === "boolean"
      : spec.type === "integer"
        ? Number.isSafeInteger(value)
        : spec.type === "string"
          ? typeof value === "string"
          : typeof value === "string" ||
            typeof value === "boolean" ||
            (typeof value === "number" && Number.isFinite(value));
  return typeOk && (spec.values === undefined || spec.values.includes(value as string));
}

const typeWords: Record<ConfigKeySpec["type"], string> = {
  boolean: "true or false",
  integer: "a whole number",
  string: "a string",
  scalar: "a string, number or boolean",
};

/**
 * model_specific_config against the model's allow-list. Keys outside it are refused, not passed on:
 * the upstream would ignore them and the user would pay for a result they did not ask for.
 */
export function checkModelConfig(
  raw: unknown,
  allowList: Record<string, ConfigKeySpec>,
  model: string,
  issues: Issues,
): void {
  if (!isPlainObject(raw)) return;
  const allowedKeys = Object.keys(allowList);
  for (const key of Object.keys(raw)) {
    const path = `model_specific_config.${key}`;
    const spec = Object.hasOwn(allowList, key) ? allowList[key] : undefined;
    if (key === "logo_add") {
      issues.error(
        path,
        "config_key_unsupported",
        "`model_specific_config.logo_add` is unsupported by the service (§2.1); remove it.",
      );
    } else if (spec === undefined) {
      const allowed =
        allowedKeys.length === 0
          ? `${model} takes no model_specific_config keys`
          : `${model} accepts ${listValues(allowedKeys)}`;
      issues.error(
        path,
        "config_key_not_allowed",
        `\`${path}\` is not in the model's allow-list: ${allowed}.`,
      );
    } else if (!fits(spec, raw[key])) {
      const expected = spec.values === undefined ? typeWords[spec.type] : listValues(spec.values);
      issues.error(
        path,
        "config_value_invalid",
        `\`${path}\` must be ${expected}, got ${typeName(raw[key])} ${JSON.stringify(raw[key])?.slice(0, 60) ?? ""}.`,
      );
    }
  }
}
