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
