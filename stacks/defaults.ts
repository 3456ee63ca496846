/**
 * Props every reelay function gets. sst.config.ts applies them, and so do the infra tests, so the
 * tested template is the deployed one.
 */
import type { App } from "sst/constructs";

const FUNCTION_DEFAULTS = {
  runtime: "nodejs22.x",
  architecture: "arm_64",
  // Finite: job logs are for debugging, not an archive; events and job records are the history.
  logRetention: "one_month",
  tracing: "active",
  memorySize: "512 MB",
  // SST v2 ships bundles unminified by default; minified they are under half the size and
  // parse faster at a cold start (npm run bench: bundles).
  nodejs: { minify: true },
} as const;

export function applyAppDefaults(app: App): void {
  app.setDefaultFunctionProps({ ...FUNCTION_DEFAULTS });
}
