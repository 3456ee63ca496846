/**
 * The rehearsal's cloud assembly: the app synthesized for stage "rehearsal" with the deploy
 * settings the rehearsal deploys with (its simulated upstream pool), the template kept per set of
 * inputs and every function's and layer's asset kept by its hash, so a later run of the same code
 * synthesizes nothing and copies nothing.
 */
import { access, cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { REHEARSAL_ACCOUNT, REHEARSAL_STAGE } from "../stacks/rehearsal.ts";
import { type DeployEnv, inputsHash, synthApp, withSynthLock } from "./synth.ts";
import type { TemplateJson } from "./template.ts";

export { REHEARSAL_ACCOUNT, REHEARSAL_STAGE };

const DIR = ".sst/rehearsal";
const ASSETS_DIR = resolve(DIR, "assets");

export interface Assembly {
  template: TemplateJson;
  /** Holds `asset.<hash>` for every function's code and layer. */
  assetsDir: string;
  /** Whether this run synthesized (false: the template of the same inputs was kept). */
  synthesized: boolean;
}

/** The S3 keys of the Lambda code and layer assets the template names (`<hash>.zip`). */
function assetKeys(template: TemplateJson): string[] {
  return Object.values(template.Resources).flatMap((r) => {
    const code = (r.Properties?.Code ?? r.Properties?.Content) as { S3Key?: unknown } | undefined;
    return typeof code?.S3Key === "string" && code.S3Key.endsWith(".zip")
      ? [code.S3Key.slice(0, -".zip".length)]
      : [];
  });
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

export function rehearsalAssembly(env: DeployEnv): Promise<Assembly> {
  return withSynthLock(async () => {
    const key = (await inputsHash(env, REHEARSAL_STAGE)).slice(0, 24);
    const file = join(DIR, "templates", `${key}.json`);
    const kept = await readFile(file, "utf8").then(
      (text) => JSON.parse(text) as TemplateJson,
      () => undefined,
    );
    if (kept !== undefined) return { template: kept, assetsDir: ASSETS_DIR, synthesized: false };
    const { template } = await synthApp({
      stage: REHEARSAL_STAGE,
      env,
      nag: false,
      account: REHEARSAL_ACCOUNT,
      keep: async (outdir, synthesized) => {
        await mkdir(ASSETS_DIR, { recursive: true });
        for (const hash of assetKeys(synthesized.toJSON() as TemplateJson)) {
          const target = join(ASSETS_DIR, `asset.${hash}`);
          if (!(await exists(target)))
            await cp(join(outdir, `asset.${hash}`), target, { recursive: true });
        }
      },
    });
    const json = template.toJSON() as TemplateJson;
    await mkdir(join(DIR, "templates"), { recursive: true });
    await writeFile(file, JSON.stringify(json));
    return { template: json, assetsDir: ASSETS_DIR, synthesized: true };
  });
}
