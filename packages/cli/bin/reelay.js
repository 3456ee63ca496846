#!/usr/bin/env node
// The CLI is written in TypeScript; tsx compiles it on the fly so there is no build step.
import { register as registerHooks } from "node:module";
import { register } from "tsx/esm/api";

// The AWS SDK warns on every start that future releases will need Node 22; reelay pins its SDK
// versions, so the notice is noise for a CLI user. Every other warning is printed as usual.
process.removeAllListeners("warning");
process.on("warning", (warning) => {
  const nodeVersionNotice =
    warning.name === "NodeVersionSupportWarning" ||
    warning.message.startsWith("NodeVersionSupportWarning");
  if (!nodeVersionNotice) console.warn(`(node) ${warning.name}: ${warning.message}`);
});

register();
// @reelay/client is published built (dist/); run from this repository, the CLI reads its source
// through the exports map's @reelay/source condition, added to every resolution here (Node's
// --conditions flag, as a hook, since this file cannot pass flags to the process it runs in).
// Registered after tsx's hooks, so it runs first and tsx resolves with the condition.
registerHooks(
  "data:text/javascript,export function resolve(specifier, context, next) { return next(specifier, { ...context, conditions: [...context.conditions, '@reelay/source'] }); }",
);
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));
