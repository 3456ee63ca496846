/** What the job options' reader (src/job-options.ts) is given in its tests: a deployment, a caller, headers. */
import { DEFAULT_QUEUE_TIMEOUT_S } from "@reelay/core/domain";
import type { OptionsContext } from "../../src/job-options.ts";

export const CTX: OptionsContext = {
  deps: {
    outputBuckets: ["customer-renders"],
    admission: { settings: { queueTimeoutS: DEFAULT_QUEUE_TIMEOUT_S } },
    webhooks: { managed: { deployment: "aws" } },
  },
  caller: { keyId: "key_a" },
};

/** A header lookup over `given`, its names compared without case as HTTP's are. */
export function headers(given: Record<string, string>) {
  const lower = new Map(Object.entries(given).map(([name, value]) => [name.toLowerCase(), value]));
  return (name: string) => lower.get(name.toLowerCase());
}
