import type { ModelSpec } from "../types.ts";
import { alphaModels } from "./alpha.ts";
import { betaModels } from "./beta.ts";
import { deltaModels } from "./delta.ts";
import { deltaImageModels } from "./deltaq2-image.ts";
import { epsilonModels } from "./epsilon.ts";
import { etaModels } from "./eta.ts";
import { gammaModels } from "./gamma.ts";
import { kappaModels } from "./kappa.ts";
import { lambdaModels } from "./lambda.ts";
import { muModels } from "./mu.ts";
import { osModels } from "./os.ts";
import { thetaModels } from "./theta.ts";
import { zetaModels } from "./zeta.ts";

/** Every model of §4.8 and §2.6, in the contract's order. */
export const builtInModels: readonly ModelSpec[] = [
  ...alphaModels,
  ...betaModels,
  ...gammaModels,
  ...deltaModels,
  ...epsilonModels,
  ...zetaModels,
  ...etaModels,
  ...thetaModels,
  ...kappaModels,
  ...osModels,
  ...lambdaModels,
  ...muModels,
  ...deltaImageModels,
];

/**
 * `<family>-latest` for the families whose codes have an obvious newest version in the contract
 * (alpha 2.7 over 2.6, gamma 3.1, deltaq3 over deltaq2, zeta 1.1 over 1.0, etanew v6.0 over v5.6).
 * REELAY_MODEL_ALIASES may point them elsewhere or add more.
 */
export const builtInAliases: Readonly<Record<string, string>> = {
  "alpha-latest": "alpha-2.7",
  "gamma-latest": "gamma-3.1",
  "deltaq-latest": "deltaq3",
  "zeta-latest": "zeta-1.1",
  "etanew-latest": "etanew-v6.0",
};
