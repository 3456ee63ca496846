/**
 * synthesizeJobFlowDefinition runs at a process's first local stack start: the CDK App it builds makes an output
 * folder (cdk.outXXXX) in the temp dir as it is constructed, and the function removes it. The temp
 * dir is a fresh one of this test's (CDK reads it once per process; vitest gives each test file
 * its own modules), so other tests' folders do not count.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";

it("synthesizeJobFlowDefinition returns the flow's ASL and leaves no cdk.out folder in the temp dir", async () => {
  const dir = mkdtempSync(join(tmpdir(), "reelay-synth-"));
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    const { synthesizeJobFlowDefinition } = await import("../src/synth-definition.ts");
    const asl = synthesizeJobFlowDefinition();
    expect(Object.keys(asl.States as object).length).toBeGreaterThan(0);
    expect(readdirSync(dir)).toEqual([]);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    rmSync(dir, { recursive: true, force: true });
  }
});

it("synthJobFlowDefinition gives every stack start its own copy of one synthesis, equal to a fresh one", async () => {
  const { synthJobFlowDefinition, synthesizeJobFlowDefinition } = await import(
    "../src/synth-definition.ts"
  );
  const first = synthJobFlowDefinition();
  (first.States as Record<string, unknown>).Extra = { Type: "Succeed" };
  const second = synthJobFlowDefinition();
  expect(second).not.toBe(first);
  expect(second).toEqual(synthesizeJobFlowDefinition());
});
