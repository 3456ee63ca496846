/**
 * Props every reelay function gets. sst.config.ts applies them, and so do the infra tests, so the
 * tested template is the deployed one.
 */
import type { App } from "sst/constructs";

/** node:http through require (functions/support/node-http.cjs), relative to the app's root as SST runs. */
const NODE_HTTP = "./functions/support/node-http.cjs";

/**
 * How SST bundles every function (esbuild, format esm, its default): minified; split, so a module a
 * function loads with `import()` (a client only some calls use, the SDK's credential providers for
 * outside Lambda) is a chunk of its own that a cold start does not compile; and node:http required
 * rather than imported, which spares Node 22 loading undici at a cold start; the workspace's packages
 * from their source. The bench's bundles figure bundles with these (bench/support/esbuild.ts);
 * test/infra/bundles.test.ts reads SST's own bundles of them, kept by the synth.
 */
export const FUNCTION_BUNDLING = {
  minify: true,
  splitting: true,
  esbuild: {
    alias: { http: NODE_HTTP, "node:http": NODE_HTTP },
    // @reelay/client (the MCP function's) from its source, as everywhere in the repository; and
    // `module`, which esbuild adds only when no condition is given.
    conditions: ["@reelay/source", "module"] as string[],
  },
} as const;

const FUNCTION_DEFAULTS = {
  runtime: "nodejs22.x",
  architecture: "arm_64",
  // Finite: job logs are for debugging, not an archive; events and job records are the history.
  logRetention: "one_month",
  tracing: "active",
  memorySize: "512 MB",
  nodejs: FUNCTION_BUNDLING,
} as const;

export function applyAppDefaults(app: App): void {
  app.setDefaultFunctionProps({ ...FUNCTION_DEFAULTS });
}
