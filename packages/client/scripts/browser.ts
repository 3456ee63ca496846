/**
 * The client as one browser module for the dashboard: esbuild bundles src/index.ts (with
 * openapi-fetch) into packages/api/src/dashboard/assets/client.js, which the page imports. The
 * dashboard has no build step, so the bundle is committed: `npm run browser -w @reelay/client`
 * rewrites it, and test/browser-bundle.test.ts fails when the committed file differs.
 */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const BROWSER_BUNDLE = fileURLToPath(
  new URL("../../api/src/dashboard/assets/client.js", import.meta.url),
);

const BANNER =
  "// @reelay/client for the dashboard, bundled by esbuild. Do not edit; `npm run browser -w @reelay/client` rewrites it.";

export async function renderBrowserBundle(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("../src/index.ts", import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    banner: { js: BANNER },
    write: false,
  });
  return result.outputFiles[0]?.text ?? "";
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(BROWSER_BUNDLE, await renderBrowserBundle());
  console.log(`wrote ${BROWSER_BUNDLE}`);
}
