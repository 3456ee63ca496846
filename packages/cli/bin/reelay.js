#!/usr/bin/env node
// The CLI is written in TypeScript; tsx compiles it on the fly so there is no build step.
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
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));
