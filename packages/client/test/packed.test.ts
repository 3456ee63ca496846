/**
 * Acceptance (issue 27): `npm pack` @reelay/client, install the tarball into an empty project with
 * npm offline (its dependencies come from npm's cache, as `npm ci` left them), and from there, in
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
const TSC = fileURLToPath(new URL("../../../node_modules/typescript/bin/tsc", import.meta.url));
/**
 * Packing builds dist/ with tsc, then npm installs from its cache, beside a stack starting: a hang
 * guard for a loaded machine (as STACK_START_MS is for a stack alone), not a measure.
 */
const SETUP_MS = 180_000;

let stack: TestStack;
let project: string;

/** An empty project with the packed tarball installed, offline. */
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
    ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", `./${tarball}`],
    { cwd: dir },
  );
  return dir;
}

/** What a user's program does: generate, wait with progress, print what it got. */
const PROGRAM = `
import { createClient, ReelayError } from "@reelay/client";
const reelay = createClient({ baseUrl: process.env.REELAY_API_URL, apiKey: process.env.REELAY_API_KEY });
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
console.log(JSON.stringify({ job, progress, refused }));
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
  it("generates a video with generate(..., { wait: true }) in plain Node: progress through to succeeded, and a link to the video's bytes", async () => {
    await writeFile(join(project, "generate.mjs"), PROGRAM);
    const { stdout } = await run(process.execPath, ["generate.mjs"], {
      cwd: project,
      env: { PATH: process.env.PATH, REELAY_API_URL: stack.url, REELAY_API_KEY: stack.apiKey },
    });
    const { job, progress, refused } = JSON.parse(stdout);
    expect(job.status).toBe("succeeded");
    const statuses = progress.map((p: { status: string }) => p.status);
    expect(statuses.at(-1)).toBe("succeeded");
    expect(["queued", "running", "downloading"]).toContain(statuses[0]);
    const [output] = job.outputs;
    expect(output.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const fetched = await sha256OfUrl(output.url);
    expect(fetched).toEqual({ sha256: output.sha256, bytes: output.bytes });
    expect(refused).toEqual({
      isReelayError: true,
      code: "invalid_request",
      status: 400,
      path: "duration_sec",
      retryable: false,
    });
  });

  it("typechecks a program against the package's .d.ts (a wrong route or field type fails)", async () => {
    await writeFile(join(project, "typed.ts"), TYPED_PROGRAM);
    const args = ["--noEmit", "--strict", "--target", "es2022", "--module", "nodenext"];
    const result = await run(process.execPath, [TSC, ...args, "typed.ts"], { cwd: project }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    expect(result.stdout).toBe("");
  });

  it("the types regenerated from the stack's GET /openapi.json are the committed src/schema.ts", async () => {
    const served = (await (await fetch(`${stack.url}/openapi.json`)).json()) as object;
    expect((await renderSchema(served)) === (await readFile(SCHEMA_FILE, "utf8"))).toBe(true);
  });
});
