import { parseArgs } from "node:util";
import { isDialect } from "./dialects.ts";
import { startSimulator } from "./server.ts";
import type { SimulatorOptions } from "./types.ts";

/** Manual runs: `npx tsx packages/simulator/src/main.ts --port 4710 --time-scale 0.1 --api-key x`. */
const { values } = parseArgs({
  options: {
    port: { type: "string" },
    host: { type: "string" },
    "api-key": { type: "string" },
    "time-scale": { type: "string" },
    "generation-ms": { type: "string" },
    "queue-ms": { type: "string" },
    dialect: { type: "string" },
    "output-bytes": { type: "string" },
    "url-ttl-ms": { type: "string" },
    "sync-images": { type: "boolean" },
    "max-concurrent": { type: "string" },
    "create-rate": { type: "string" },
  },
});

function num(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`--${flag} must be a non-negative number, got ${raw}`);
    process.exit(2);
  }
  return n;
}

if (values.dialect !== undefined && !isDialect(values.dialect)) {
  console.error(`--dialect must be one of standard, flat, nested_output, url_only, string_error`);
  process.exit(2);
}

const options: SimulatorOptions = {
  port: num("port", values.port) ?? 4710,
  ...(values.host === undefined ? {} : { host: values.host }),
  ...(values["api-key"] === undefined ? {} : { apiKey: values["api-key"] }),
  ...(values.dialect !== undefined && isDialect(values.dialect) ? { dialect: values.dialect } : {}),
  ...(values["sync-images"] === true ? { syncImages: true } : {}),
};
const numeric = {
  timeScale: num("time-scale", values["time-scale"]),
  generationMs: num("generation-ms", values["generation-ms"]),
  queueMs: num("queue-ms", values["queue-ms"]),
  outputBytes: num("output-bytes", values["output-bytes"]),
  urlTtlMs: num("url-ttl-ms", values["url-ttl-ms"]),
  maxConcurrent: num("max-concurrent", values["max-concurrent"]),
  createRate: num("create-rate", values["create-rate"]),
};
for (const [k, v] of Object.entries(numeric))
  if (v !== undefined) Object.assign(options, { [k]: v });

const sim = await startSimulator(options);
console.log(`reelay upstream simulator listening at ${sim.url}`);
const stop = (): void => void sim.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
