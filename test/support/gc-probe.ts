/**
 * `node --trace-gc gc-probe.mjs [module]` (bundled by the test, or under tsx): imports `module`
 * (when given), then churns the old generation (batches of objects that live long enough to be
 * promoted, then are dropped), so V8 runs a few mark-compacts; the parent reads how each began
 * from the --trace-gc lines after the line "churn starts" (loading the modules collects garbage
 * too).
 */
import { setImmediate as turn } from "node:timers/promises";

if (process.argv[2] !== undefined) await import(process.argv[2]);
console.log("churn starts");

let kept: object[][] = [];
for (let round = 0; round < 60; round++) {
  const batch: object[] = [];
  for (let i = 0; i < 50_000; i++) batch.push({ round, i, label: `item ${i}` });
  kept.push(batch);
  if (kept.length > 4) kept = kept.slice(1);
  await turn();
}
console.log(`kept ${kept.length} batches`);
