#!/usr/bin/env node
// The CLI is written in TypeScript, with no build step: it runs compiled by esbuild into a cached
// copy that each start checks against the sources (compiled.js), or, failing that, under tsx.
import { register as registerHooks } from "node:module";
import { compiledCli } from "./compiled.js";

// The AWS SDK warns on every start that future releases will need Node 22; reelay pins its SDK
// versions, so the notice is noise for a CLI user. Every other warning is printed as usual.
process.removeAllListeners("warning");
process.on("warning", (warning) => {
  const nodeVersionNotice =
    warning.name === "NodeVersionSupportWarning" ||
    warning.message.startsWith("NodeVersionSupportWarning");
  if (!nodeVersionNotice) console.warn(`(node) ${warning.name}: ${warning.message}`);
});

/** The sources under tsx: when the compiled copy cannot be had (compiled.js). */
async function fromSources() {
  const { register } = await import("tsx/esm/api");
  register();
  // @reelay/client is published built (dist/); run from this repository, the CLI reads its source
  // through the exports map's @reelay/source condition, added to every resolution here (Node's
  // --conditions flag, as a hook, since this file cannot pass flags to the process it runs in).
  // Registered after tsx's hooks, so it runs first and tsx resolves with the condition.
  registerHooks(
    "data:text/javascript,export function resolve(specifier, context, next) { return next(specifier, { ...context, conditions: [...context.conditions, '@reelay/source'] }); }",
  );
  return import("../src/main.ts");
}

const compiled = await compiledCli().catch(() => undefined);
const { main } = compiled === undefined ? await fromSources() : await import(compiled);
process.exitCode = await main(process.argv.slice(2));
