/**
 * reelay's release: the root package.json's `version`, its one source. Imported, not read at run
 * time, so esbuild inlines the one string into every Lambda bundle and tsx or vitest read it from
 * the file on the local stack. It moves by semver: a change to the API or to stored data says so.
 */
import { version } from "../../../../package.json";

export const VERSION: string = version;
