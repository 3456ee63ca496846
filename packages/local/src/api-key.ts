/**
 * The local stack's API key: REELAY_API_KEY when set (through Config), else one generated on the
 * first start and kept in `<data dir>/api-key` (mode 0600), so clients keep working across restarts.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const API_KEY_FILE = "api-key";

export async function loadOrCreateApiKey(dataDir: string, configured?: string): Promise<string> {
  if (configured !== undefined && configured !== "") return configured;
  const path = join(dataDir, API_KEY_FILE);
  const existing = await readFile(path, "utf8").then((text) => text.trim(), (error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return "";
    throw error;
  });
  if (existing !== "") return existing;
  await mkdir(dataDir, { recursive: true });
  const key = `rl_${randomBytes(24).toString("base64url")}`;
  // "wx": two stacks starting at once must not each write a different key; the loser reads the winner's.
  try {
    await writeFile(path, `${key}\n`, { mode: 0o600, flag: "wx" });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return (await readFile(path, "utf8")).trim();
  }
}
