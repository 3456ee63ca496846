/**
 * The import rules `npm run check` enforces (docs/architecture.md, Layout): core in layers, domain <- use cases
 * <- adapters <- the composition root (wiring/), imports only going down (of the use cases,
 * adapters see their ports only), no AWS SDK below the adapters, nothing outside core (or the API
 * package) past its exports map (one entry a layer, no root entry), and no import cycle anywhere.
 * Type-only imports count (tsPreCompilationDeps): a type is as much a dependency as a value.
 */
const CORE = "^packages/core/src/";
const WIRING = `${CORE}wiring/`;
const AWS_SDK = "(^|/)node_modules/@aws-sdk/|^@aws-sdk/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "domain-imports-only-domain",
      comment: "domain/ holds the rules: it imports neither use cases, adapters nor the wiring.",
      severity: "error",
      from: { path: `${CORE}domain/` },
      to: { path: [`${CORE}(usecases|adapters)/`, WIRING] },
    },
    {
      name: "usecases-import-no-adapters",
      comment: "usecases/ take ports (usecases/ports.ts), never the adapters or the wiring.",
      severity: "error",
      from: { path: `${CORE}usecases/` },
      to: { path: [`${CORE}adapters/`, WIRING] },
    },
    {
      name: "adapters-import-only-ports-and-domain",
      comment:
        "adapters/ implement the ports: of core they import the domain and usecases/ports.ts only, never a use case or the wiring (which alone chooses and assembles them).",
      severity: "error",
      from: { path: `${CORE}adapters/` },
      to: { path: CORE, pathNot: `${CORE}(adapters/|domain/|usecases/ports\\.ts$)` },
    },
    {
      name: "no-aws-sdk-below-adapters",
      comment: "The AWS SDK (even a type from it) belongs to adapters/ and the wiring.",
      severity: "error",
      from: { path: `${CORE}(domain|usecases)/` },
      to: { path: AWS_SDK },
    },
    {
      name: "core-only-through-its-exports",
      comment:
        "Outside packages/core, core is imported through the entries in its package.json exports.",
      severity: "error",
      from: { pathNot: "^packages/core/" },
      to: {
        path: CORE,
        pathNot: `${CORE}(domain|usecases|adapters|wiring)/index\\.ts$`,
      },
    },
    {
      name: "api-only-through-its-exports",
      comment:
        "Outside packages/api, the API package is imported through its entries: the app (index), its OpenAPI schemas (openapi) and its Node server (serve).",
      severity: "error",
      from: { pathNot: "^packages/api/" },
      to: {
        path: "^packages/api/src/",
        pathNot: "^packages/api/src/(index|serve|openapi/index)\\.ts$",
      },
    },
    {
      name: "api-on-ports",
      comment:
        "The API is typed by the ports (@reelay/core/usecases) and takes its stores as deps: no file of it imports the adapters.",
      severity: "error",
      from: { path: "^packages/api/src/" },
      to: { path: `${CORE}adapters/` },
    },
    {
      name: "no-circular",
      comment: "An import cycle makes load order matter and the layers meaningless.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(\\.sst|cdk\\.out|dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["@reelay/source", "import", "require", "node", "default", "types"],
      extensions: [".ts", ".js", ".mjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
