/**
 * Where the reelay API is and which key to send. The key comes from REELAY_API_KEY (via Config) or,
 * for the local stack, from the key file it writes once into its data dir, so `npm start` in one
 * terminal and `reelay generate` in another need no setup.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ReelayError } from "@reelay/core/domain";
import type { Config } from "@reelay/core/wiring";
import { API_KEY_FILE } from "@reelay/local/api-key";

export interface ClientSettings {
  apiUrl: string;
  apiKey: string;
}

export async function clientSettings(
  config: Pick<Config, "apiUrl" | "apiKey" | "dataDir">,
): Promise<ClientSettings> {
  const apiUrl = config.apiUrl.replace(/\/+$/, "");
  if (config.apiKey !== undefined) return { apiUrl, apiKey: config.apiKey };
  const file = join(config.dataDir, API_KEY_FILE);
  let apiKey: string;
  try {
    apiKey = (await readFile(file, "utf8")).trim();
  } catch (error) {
    throw new ReelayError(
      "no_api_key",
      `No API key: set REELAY_API_KEY, or start the local stack (\`npm start\`) so it writes ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
      { path: "REELAY_API_KEY", cause: error },
    );
  }
  if (apiKey === "")
    throw new ReelayError("no_api_key", `No API key: ${file} is empty; set REELAY_API_KEY.`, {
      path: "REELAY_API_KEY",
    });
  return { apiUrl, apiKey };
}
