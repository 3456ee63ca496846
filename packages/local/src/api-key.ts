/**
 * The local stack's API key: REELAY_API_KEY when set (through Config), else one generated on the
 * first start and kept in `<data dir>/api-key` (mode 0600), so clients keep working across restarts.
 */
import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const API_KEY_FILE = "api-key";

export async function loadOrCreateApiKey(dataDir: string, configured?: string): Promise<string> {
  if (configured !== undefined && configured !== "") return configured;
  const path = join(dataDir, API_KEY_FILE);
  const existing = await readFile(path, "utf8").then(
    (text) => text.trim(),
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return "";
      throw error;
    },
  );
  if (existing !== "") return existing;
  await mkdir(dataDir, { recursive: true });
  const key = `rl_${randomBytes(24).toString("base64url")}`;
  // Written whole beside it, then linked into place: link() refuses an existing name, so two stacks
  // starting at once agree on one key, and neither can read a half-written file.
  const draft = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(draft, `${key}\n`, { mode: 0o600 });
  try {
    await link(draft, path);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return (await readFile(path, "utf8")).trim();
  } finally {
    await rm(draft, { force: true });
  }
}
