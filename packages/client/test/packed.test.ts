/**
 * The published client: `npm pack` @reelay/client, install the tarball into an empty project with
 * npm preferring its cache (`npm ci` fetches by the lockfile's URLs and caches no package documents,
 * so its dependencies' versions may still have to be read from the registry), and from there, in
 * plain Node without anything of this repository, generate a video against the local stack with
 * `generate(..., { wait: true })`. The same project typechecks a program against the package's
 * .d.ts, and the types regenerated from the stack's own /openapi.json are the committed ones.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256OfUrl, startTestStack, type TestStack } from "../../../test/e2e/support/stack.ts";
import { renderSchema, SCHEMA_FILE } from "../scripts/schema.ts";

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
/** TypeScript 7 (the native compiler, as the package's build uses): TypeScript 5 spent 14 CPU-s here. */
const TSC = fileURLToPath(new URL("../../../node_modules/typescript-7/bin/tsc", import.meta.url));
/**
 * Packing builds dist/ with tsc, then npm installs (from its cache where it can), beside a stack starting: a hang
 * guard for a loaded machine (as STACK_START_MS is for a stack alone), not a measure.
 */
const SETUP_MS = 180_000;

/** A hang guard: TypeScript 5 took 24 s here on a loaded machine (9 s quiet); 7 takes about 1 s. */
const TSC_MS = 120_000;

let stack: TestStack;
let project: string;

/** An empty project with the packed tarball installed, from npm's cache where it can. */
async function installPacked(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "reelay-client-packed-"));
  await run("npm", ["pack", "--pack-destination", dir], { cwd: PACKAGE_DIR });
  const [tarball] = (await readdir(dir)).filter((name) => name.endsWith(".tgz"));
  if (tarball === undefined) throw new Error(`npm pack left no tarball in ${dir}`);
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ name: "uses-reelay-client", private: true, type: "module" }),
  );
  await run(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", `./${tarball}`],
    { cwd: dir },
  );
  return dir;
}

/** What a user's program does: generate, wait with progress, print what it got. */
const PROGRAM = `
import { createClient, ReelayError } from "@reelay/client";
const reelay = createClient({ baseUrl: process.env.REELAY_API_URL, apiKey: process.env.REELAY_API_KEY });
const stop = new AbortController();
const events = [];
const following = (async () => {
  try {
    for await (const event of reelay.events({ signal: stop.signal })) events.push(event);
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  }
})();
const progress = [];
const job = await reelay.generate(
  { model: "gamma-3.1", prompt: "a paper boat in the rain", duration_sec: 4 },
  { wait: true, intervalMs: 250, onProgress: (job) => progress.push({ status: job.status, polls: job.polls }) },
);
let refused;
try {
  await reelay.generate({ model: "gamma-3.1", prompt: "too long", duration_sec: 99 });
} catch (error) {
  refused = { isReelayError: error instanceof ReelayError, code: error.code, status: error.status, path: error.path, retryable: error.retryable };
}
for (let i = 0; i < 100 && !events.some((event) => event.detail.jobId === job.id); i++)
  await new Promise((resolve) => setTimeout(resolve, 100));
stop.abort();
await following;
const event = events.find((event) => event.detail.jobId === job.id);
console.log(JSON.stringify({ job, progress, refused, event }));
`;

/** A batch of a good line and a bad one, followed to its end, then its results line by line. */
const BATCH_PROGRAM = `
import { createClient } from "@reelay/client";
const reelay = createClient({ baseUrl: process.env.REELAY_API_URL, apiKey: process.env.REELAY_API_KEY });
const made = await reelay.batches.create([
  { model: "gamma-3.1", prompt: "a paper boat", duration_sec: 4 },
  { model: "gamma-3.1", prompt: "too long", duration_sec: 99 },
]);
let batch = made;
for (let i = 0; i < 200 && batch.status !== "completed"; i++) {
  await new Promise((resolve) => setTimeout(resolve, 250));
  batch = (await reelay.GET("/v1/batches/{id}", { params: { path: { id: made.id } } })).data;
}
const results = [];
for await (const result of reelay.batches.results(made.id)) results.push(result);
console.log(JSON.stringify({ batch, results }));
`;

/** The same calls, typechecked against the package's .d.ts: a wrong field or status is an error. */
const TYPED_PROGRAM = `
import { createClient, type Job, type JobStatus } from "@reelay/client";
const reelay = createClient({ baseUrl: "http://127.0.0.1:4700", apiKey: "k" });
const job: Job = await reelay.generate(
  { model: "gamma-3.1", prompt: "p", duration_sec: 4 },
  { wait: true, onProgress: (current) => { const status: JobStatus = current.status; void status; } },
);
const links: (string | null)[] = job.outputs.map((output) => output.url);
const { data } = await reelay.GET("/v1/jobs/{id}", { params: { path: { id: job.id } } });
const polls: number | undefined = data?.polls;
// @ts-expect-error a route reelay does not serve
await reelay.GET("/v1/no-such-route");
// @ts-expect-error duration_sec is a number
await reelay.generate({ model: "gamma-3.1", prompt: "p", duration_sec: "4" });
export { links, polls };
`;

beforeAll(async () => {
  [stack, project] = await Promise.all([startTestStack(), installPacked()]);
}, SETUP_MS);
afterAll(async () => {
  await stack?.dispose();
  if (project !== undefined) await rm(project, { recursive: true, force: true });
});

describe("@reelay/client, packed and installed into an empty project", () => {
  it("generates a video with generate(..., { wait: true }) in plain Node: progress through to succeeded, a link to the video's bytes, its event on events(), a refusal as a ReelayError", async () => {
    await writeFile(join(project, "generate.mjs"), PROGRAM);
    const { stdout } = await run(process.execPath, ["generate.mjs"], {
      cwd: project,
      env: { PATH: process.env.PATH, REELAY_API_URL: stack.url, REELAY_API_KEY: stack.apiKey },
    });
    const { job, progress, refused, event } = JSON.parse(stdout);
    expect(job.status).toBe("succeeded");
    const statuses = progress.map((p: { status: string }) => p.status);
    expect(statuses.at(-1)).toBe("succeeded");
    expect(["queued", "running", "downloading"]).toContain(statuses[0]);
    const [output] = job.outputs;
    expect(output.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const fetched = await sha256OfUrl(output.url);
    expect(fetched).toEqual({ sha256: output.sha256, bytes: output.bytes });
    expect(event).toMatchObject({
      "detail-type": "Generation Succeeded",
      id: `${job.id}.succeeded`,
    });
    expect(refused).toEqual({
      isReelayError: true,
      code: "invalid_request",
      status: 400,
      path: "duration_sec",
      retryable: false,
    });
  });

  it("batches.create(lines) makes a batch, and batches.results(id) gives one result per line once it is done", async () => {
    await writeFile(join(project, "batch.mjs"), BATCH_PROGRAM);
    const { stdout } = await run(process.execPath, ["batch.mjs"], {
      cwd: project,
      env: { PATH: process.env.PATH, REELAY_API_URL: stack.url, REELAY_API_KEY: stack.apiKey },
    });
    const { batch, results } = JSON.parse(stdout);
    expect(batch.total).toBe(2);
    expect(results.map((r: { line: number; status: string }) => [r.line, r.status])).toEqual([
      [1, "succeeded"],
      [2, "rejected"],
    ]);
    expect(results[0].outputs[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(results[1].error.code).toBe("invalid_request");
  });

  it(
    "typechecks a program against the package's .d.ts (a wrong route or field type fails)",
    async () => {
      await writeFile(join(project, "typed.ts"), TYPED_PROGRAM);
      const args = ["--noEmit", "--strict", "--target", "es2022", "--module", "nodenext"];
      const result = await run(process.execPath, [TSC, ...args, "typed.ts"], {
        cwd: project,
      }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
      expect(result.stdout).toBe("");
    },
    TSC_MS,
  );

  it("the types regenerated from the stack's GET /openapi.json are the committed src/schema.ts", async () => {
    const served = (await (await fetch(`${stack.url}/openapi.json`)).json()) as object;
    expect((await renderSchema(served)) === (await readFile(SCHEMA_FILE, "utf8"))).toBe(true);
  });
});
