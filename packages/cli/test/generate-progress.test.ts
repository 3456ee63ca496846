import { describe, expect, it } from "vitest";
import { progressLine } from "../src/client/progress.ts";

function capture() {
  const written: string[] = [];
  return { written, write: (text: string) => void written.push(text) };
}

describe("progressLine (generate's live status)", () => {
  it("off a terminal writes a line only when the status or poll count changes", () => {
    const out = capture();
    let now = 1000;
    const line = progressLine(out.write, false, 1000, () => now);
    line.update("queued", 0);
    now = 2500;
    line.update("queued", 0);
    line.update("running", 0);
    now = 4000;
    line.update("running", 1);
    line.done();
    expect(out.written).toEqual([
      "queued        0.0 s  0 polls\n",
      "running       1.5 s  0 polls\n",
      "running       3.0 s  1 poll\n",
    ]);
  });

  it("on a terminal rewrites one line in place and ends it with a newline when done", () => {
    const out = capture();
    const line = progressLine(out.write, true, 0, () => 12_300);
    line.update("running", 4);
    line.done();
    expect(out.written[0]).toBe("\r\x1b[Krunning      12.3 s  4 polls");
    expect(out.written.at(-1)).toBe("\n");
    expect(out.written.join("")).not.toMatch(/\n[\s\S]*\n/);
  });
});
