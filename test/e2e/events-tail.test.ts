/** The events file reader the end-to-end waits ask before the API (support/events-tail.ts). */
import { appendFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EventsTail } from "./support/events-tail.ts";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function eventsFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "reelay-events-tail-"));
  dirs.push(dir);
  return join(dir, "events.jsonl");
}

const line = (type: string, jobId: string) =>
  `${JSON.stringify({ "detail-type": type, detail: { jobId, prompt: "ünïcödé" } })}\n`;
/** Past the tail's refresh interval, so the next look reads the file again. */
const later = () => new Promise((resolve) => setTimeout(resolve, 60));

describe("EventsTail", () => {
  it("sees a job end once its terminal event is appended, whatever came before, and no other event ends it", async () => {
    const path = await eventsFile();
    const tail = new EventsTail(path);
    expect(await tail.hasEnded("a")).toBe(false); // no file yet
    await writeFile(path, line("Key Created", "a") + line("Generation Failed", "b"));
    await later();
    expect(await tail.hasEnded("a")).toBe(false);
    expect(await tail.hasEnded("b")).toBe(true);
    await appendFile(path, line("Generation Succeeded", "a"));
    await later();
    expect(await tail.hasEnded("a")).toBe(true);
  });

  it("a line read half written (cut inside a character) counts once it is whole", async () => {
    const path = await eventsFile();
    const tail = new EventsTail(path);
    const whole = Buffer.from(line("Generation Cancelled", "c"));
    const cut = whole.indexOf(Buffer.from("ï")) + 1;
    await writeFile(path, whole.subarray(0, cut));
    expect(await tail.hasEnded("c")).toBe(false);
    await appendFile(path, whole.subarray(cut));
    await later();
    expect(await tail.hasEnded("c")).toBe(true);
  });

  it("a file written afresh, shorter than what was read, is read from its start", async () => {
    const path = await eventsFile();
    const tail = new EventsTail(path);
    await writeFile(path, line("Key Created", "x").repeat(5));
    expect(await tail.hasEnded("d")).toBe(false);
    await writeFile(path, line("Generation Succeeded", "d"));
    await later();
    expect(await tail.hasEnded("d")).toBe(true);
  });
});
