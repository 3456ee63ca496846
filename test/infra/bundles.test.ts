/**
 * What goes into each Lambda bundle, as SST built it for the template (the synth keeps each
 * function's esbuild metafile beside its bundle, rehearsal/synth.ts): what a deploy uploads. Read
 * from the metafile, never timed (the cold import is the bench's bundles figure).
 * Infrastructure code (aws-cdk-lib, constructs, the CDK flow definition), the local stack and the
 * simulator must stay out of every function but the deployed simulator's, and so must sst/node's
 * pinned second copy of the AWS SDK (secrets are read with the project's SDK); Powertools Tracer
 * is in every reelay function, and Metrics in every one but MCP's, which calls only the API;
 * the clients only some calls use are chunks a cold start does not load (the functions whose every
 * call uses the bucket load the S3 chunks with their module, functions/support/bucket.ts). */
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundle, type Bundle, bundleOf } from "../../bench/support/esbuild.ts";
import type { KeptBundle } from "../../rehearsal/synth.ts";
import { FUNCTION_BUNDLING } from "../../stacks/defaults.ts";
import { SYNTH_TIMEOUT_MS, sstBundles } from "./synth.ts";

const FUNCTIONS_DIR = fileURLToPath(new URL("../../functions/", import.meta.url));
/** The deployed simulator's function (functions/simulator.ts): the simulator is what it runs. */
const SIMULATOR = "simulator";

const FORBIDDEN: [string, RegExp][] = [
  ["aws-cdk-lib", /^node_modules\/aws-cdk-lib\//],
  ["constructs", /^node_modules\/constructs\//],
  ["sst/constructs", /^node_modules\/sst\/constructs\//],
  ["sst's own AWS SDK copy", /^node_modules\/sst\/node_modules\/@aws-sdk\//],
  [
    "the CDK job flow definition",
    /^packages\/flow\/src\/(job-flow|synth-definition|run-local)\.ts$/,
  ],
  ["the simulator", /^packages\/simulator\//],
  ["the local stack", /^packages\/local\//],
  // The Download function's ffmpeg is its layer's; no bundle carries the binary or its installer.
  ["ffmpeg's installer", /^node_modules\/@ffmpeg-installer\//],
];

let dir: string;
const bundles = new Map<string, Bundle>();

/**
 * A function's bundle from SST's build: the entry (the output whose entry point is the handler's
 * file) and what it imports, source maps left out (SST uploads them apart from the code).
 */
function fromSst(kept: KeptBundle, name: string): Bundle {
  const meta = kept.meta as Bundle["meta"] & {
    outputs: Record<string, Bundle["meta"]["outputs"][string] & { entryPoint?: string }>;
  };
  const outputs = Object.fromEntries(
    Object.entries(meta.outputs).filter(([path]) => !path.endsWith(".map")),
  );
  const entry = Object.keys(outputs).find(
    (path) => outputs[path]?.entryPoint === `functions/${name}.ts`,
  );
  if (entry === undefined) throw new Error(`SST's bundle of ${kept.handler} names no entry`);
  return bundleOf({ ...meta, outputs }, entry, entry);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "reelay-bundles-"));
  const names = (await readdir(FUNCTIONS_DIR))
    .filter((f) => f.endsWith(".ts"))
    .map((file) => basename(file, ".ts"));
  const handlers = names.map((name) => `functions/${name}.handler`);
  const kept = await sstBundles(handlers);
  for (const [name, handler] of names.map((name, i) => [name, handlers[i] ?? ""] as const)) {
    const found = kept.get(handler);
    if (found !== undefined) bundles.set(name, fromSst(found, name));
  }
}, SYNTH_TIMEOUT_MS);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("Lambda bundles", () => {
  it("every handler in functions/ bundles", () => {
    expect([...bundles.keys()].sort()).toEqual([
      "api",
      "dispatch",
      "download",
      "drop",
      "fail",
      "finish",
      "mcp",
      "poll",
      "simulator",
      "submit",
      "webhook",
    ]);
  });

  it("no bundle holds infrastructure code, the simulator (but the simulator's), the local stack or a second AWS SDK", () => {
    const found = [...bundles].flatMap(([name, b]) =>
      FORBIDDEN.flatMap(([what, pattern]) => {
        // The simulator's installer of ffmpeg is a chunk its function never loads (its ffmpeg is
        // its layer's, functions/simulator.ts).
        if (name === SIMULATOR && (what === "the simulator" || what === "ffmpeg's installer"))
          return [];
        const hit = Object.keys(b.meta.inputs).find((input) => pattern.test(input));
        return hit === undefined ? [] : [`${name}: ${what} (${hit})`];
      }),
    );
    expect(found).toEqual([]);
  });

  it("every reelay function traces with Powertools Tracer, and measures with Powertools Metrics (MCP's calls the API, which does; the simulator stands in for the upstream)", () => {
    const reelay = [...bundles].filter(([name]) => name !== SIMULATOR);
    const missing = reelay.flatMap(([name, b]) =>
      // MCP records no metric of its own: the API it calls counts what its tools do.
      (name === "mcp" ? ["tracer"] : ["tracer", "metrics"]).flatMap((library) =>
        Object.keys(b.meta.inputs).some((input) =>
          input.startsWith(`node_modules/@aws-lambda-powertools/${library}/`),
        )
          ? []
          : [`${name}: @aws-lambda-powertools/${library}`],
      ),
    );
    expect(missing).toEqual([]);
  });

  it("the step functions use the flow's step names (flow/job-flow-names.ts), not the CDK definition", () => {
    for (const step of ["submit", "poll", "download", "finish", "fail"]) {
      expect(Object.keys(bundles.get(step)?.meta.inputs ?? {})).toContain(
        "packages/flow/src/job-flow-names.ts",
      );
    }
  });

  it("a cold start statically loads no Lambda, Step Functions, SSM or S3 client, nor the SDK's credential providers for outside Lambda", () => {
    const lazy = [
      /^node_modules\/@aws-sdk\/(client-(lambda|sfn|ssm|s3)|s3-request-presigner)\//,
      /^node_modules\/@aws-lambda-powertools\/parameters\//,
      /^node_modules\/@aws-sdk\/(nested-clients|credential-provider-(ini|sso|process|web-identity))\//,
    ];
    const loaded = [...bundles].flatMap(([name, b]) =>
      b.coldInputs
        .filter((input) => lazy.some((pattern) => pattern.test(input)))
        .map((input) => `${name}: ${input}`),
    );
    expect(loaded).toEqual([]);
    // They are still in the bundles, for the calls that load them.
    expect(bundles.get("api")?.meta.inputs).toHaveProperty([
      "node_modules/@aws-sdk/client-sfn/dist-es/SFNClient.js",
    ]);
  });

  it("the node:http a bundle's code gets (through the alias) is Node's own, with its Agent and request", async () => {
    // The SDK's http handler (any http:// endpoint) takes Agent and request from it; a require the
    // alias turned back into the alias's own file gave an empty module.
    const entry = join(dir, "uses-http.ts");
    await writeFile(
      entry,
      'import http from "node:http";\nexport const kinds = [typeof http.Agent, typeof http.request];\n',
    );
    await bundle(entry, join(dir, "uses-http", "uses-http.mjs"), { ...FUNCTION_BUNDLING });
    const loaded = (await import(pathToFileURL(join(dir, "uses-http", "uses-http.mjs")).href)) as {
      kinds: string[];
    };
    expect(loaded.kinds).toEqual(["function", "function"]);
  });

  it("no bundle imports node:http as an ES module (Node 22 then loads undici at a cold start)", () => {
    const imported = [...bundles].flatMap(([name, b]) =>
      Object.entries(b.meta.outputs).flatMap(([file, output]) =>
        output.imports
          .filter(
            (i) => i.kind === "import-statement" && (i.path === "http" || i.path === "node:http"),
          )
          .map(() => `${name}: ${basename(file)}`),
      ),
    );
    expect(imported).toEqual([]);
  });
});
