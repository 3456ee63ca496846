/**
 * Stage "rehearsal" is `npm run rehearse`: the template run on one machine, where the simulated
 * upstream's outputs and the webhook subscribers live on loopback over http. Its functions are told
 * so (REELAY_REHEARSAL), and the stage can never reach AWS: it synthesizes only for AWS's
 * documentation account, which no one deploys to.
 */
import type { App } from "sst/constructs";
import { ReelayError } from "@reelay/core/domain";

export const REHEARSAL_STAGE = "rehearsal";
/** AWS's documentation account id: no real deploy has it. */
export const REHEARSAL_ACCOUNT = "123456789012";

export function rehearsalEnvironment(app: App): Record<string, string> {
  if (app.stage !== REHEARSAL_STAGE) return {};
  if (app.account !== REHEARSAL_ACCOUNT)
    throw new ReelayError(
      "invalid_config",
      `Stage "${REHEARSAL_STAGE}" is for \`npm run rehearse\` on this machine and is never deployed; pick another stage name.`,
      { path: "stage" },
    );
  return { REELAY_REHEARSAL: "1" };
}
