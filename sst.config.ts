import type { SSTConfig } from "sst";
import { applyAppDefaults } from "./stacks/defaults.ts";
import { ReelayStack } from "./stacks/ReelayStack.ts";

export default {
  config() {
    return { name: "reelay", region: "us-east-1" };
  },
  stacks(app) {
    applyAppDefaults(app);
    app.stack(ReelayStack);
  },
} satisfies SSTConfig;
