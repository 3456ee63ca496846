import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clientStackForSuite } from "./support/client-stack.ts";

/** The one source of the release: the repository's package.json. */
const ROOT_PACKAGE = join(import.meta.dirname, "..", "..", "..", "package.json");

async function released(): Promise<string> {
  return (JSON.parse(await readFile(ROOT_PACKAGE, "utf8")) as { version: string }).version;
}

async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let tries = 0; tries < 300; tries++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("timed out");
}

describe("the release's version, from package.json, everywhere it is shown", () => {
  const t = clientStackForSuite();

  it("`reelay --version` (the binary) prints package.json's version and exits 0", async () => {
    const run = await t.bin(["--version"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${await released()}\n`);
  });

  it("GET /healthz, the job record and its terminal event carry it", async () => {
    const version = await released();
    const health = await t.api<{ version: string }>("GET", "/healthz");
    expect(health.body.version).toBe(version);

    const created = await t.api<{ task_id: string }>("POST", "/v1/video/generations", {
      model: "gamma-3.1",
      prompt: "a version number painted on a wall",
      duration_sec: 4,
    });
    const id = created.body.task_id;
    const job = await t.api<{ created_by_version: string }>("GET", `/v1/jobs/${id}`);
    expect(job.body.created_by_version).toBe(version);

    // The event's createdByVersion is read from the stored record, as the job view's is.
    const events = join(t.stack.dataDir, "events.jsonl");
    const event = await until(async () => {
      const text = await readFile(events, "utf8").catch(() => "");
      return text
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { id: string; detail: Record<string, unknown> })
        .find((e) => e.id.startsWith(`${id}.`));
    });
    expect(event.detail).toMatchObject({ version, createdByVersion: version });
  });
});
