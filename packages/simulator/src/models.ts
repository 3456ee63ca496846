import type { ModelEntry } from "./types.ts";

/** Every model code the service interface names (lambda and mu are named without codes). */
const VIDEO_MODELS = [
  "alpha-2.7",
  "alpha-2.6",
  "alpha-2.6-flash",
  "alpha-2.7-videoedit",
  "beta-2.0-os",
  "beta-2.0-overseas-hc-os",
  "beta-2.0-fast-hc-os",
  "beta-2.0-mini-overseas-hc-os",
  "gamma-3.1",
  "gamma-3.1-fast",
  "gamma-3.1-lite",
  "deltaq2",
  "deltaq2-pro",
  "deltaq2-turbo",
  "deltaq3",
  "deltaq3-pro",
  "deltaq3-turbo",
  "deltaq3-pro-fast",
  "deltaq3-mix",
  "epsilon-2.3",
  "epsilon-2.3-fast",
  "epsilonnew-1",
  "zeta-1.1",
  "zeta-1.0",
  "etanew-v6.0",
  "etanew-c1",
  "etanew-v5.6",
  "theta-3.0-pro",
  "kappa-omni-flash-preview",
  "os-2",
];

const IMAGE_MODELS = ["deltaq2-image"];

export const DEFAULT_MODELS: readonly ModelEntry[] = [
  ...VIDEO_MODELS.map((id) => ({ id, modality: "video" as const })),
  ...IMAGE_MODELS.map((id) => ({ id, modality: "image" as const })),
];

export function hasModel(
  models: readonly ModelEntry[],
  id: string,
  modality: ModelEntry["modality"],
): boolean {
  return models.some((m) => m.id === id && m.modality === modality);
}
