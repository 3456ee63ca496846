import { readdir } from "node:fs/promises";
import { synthApp, withSynthLock } from "./rehearsal/synth.ts";
await withSynthLock(() => synthApp({ stage: "rehearsal", env: { REELAY_UPSTREAM_URL: "http://127.0.0.1:9/v1" }, nag: false, keep: async (outdir) => {
  const entries = await readdir(outdir);
  console.log(outdir, entries.slice(0, 40));
}}));
