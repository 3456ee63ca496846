/**
 * The index repair reads every item and index entry, seconds once the table holds tens of
 * thousands of jobs; it is needed only when a write may have stopped between an item's index
 * entries and the item. The dynalite child says whether the last child on its folder closed it
 * cleanly with nothing opening it since: only then is the repair skipped.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { spawnDynalite } from "../src/dynalite/start.ts";

const require = createRequire(import.meta.url);
const { Level } = createRequire(require.resolve("dynalite"))("level") as {
  Level: new (
    dir: string,
  ) => { open(): Promise<void>; put(k: string, v: string): Promise<void>; close(): Promise<void> };
};

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

it("a dynalite child reports a clean close of its folder only when the last child closed it and nothing opened it since", async () => {
  dir = await mkdtemp(join(tmpdir(), "reelay-clean-close-"));
  const folder = join(dir, "dynamodb");
  const first = await spawnDynalite(folder, "127.0.0.1");
  expect(first.clean).toBe(false);
  await first.stop();

  const second = await spawnDynalite(folder, "127.0.0.1");
  expect(second.clean).toBe(true);
  // Killed: no clean close.
  process.kill(second.pid, "SIGKILL");
  await second.stop();

  const third = await spawnDynalite(folder, "127.0.0.1");
  expect(third.clean).toBe(false);
  await third.stop();

  // Opened and written by something else after a clean close.
  const other = new Level(folder);
  await other.open();
  await other.put("written", "elsewhere");
  await other.close();
  const fourth = await spawnDynalite(folder, "127.0.0.1");
  expect(fourth.clean).toBe(false);
  await fourth.stop();
}, 60_000);
