/**
 * The compiled CLI (bin/compiled.js) keeps each command in a chunk of its own, loaded when that
 * command runs: the entry's static imports, followed through the chunks they name, reach none of
 * the heavy npm packages only some commands use (the AWS SDK, the MCP SDK, the state machine
 * interpreter), which the copy as a whole does import. As one module it loaded them all at every
 * start: about 0.9 CPU-s before `reelay --help` printed a line, 0.3 now.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const COMPILED = fileURLToPath(new URL("../bin/compiled.js", import.meta.url));
const HEAVY = ["@aws-sdk/client-s3", "@modelcontextprotocol/sdk", "aws-local-stepfunctions"];

/** What the compiled copy's entry is (compiling it first when no copy is current). */
async function entryFile(): Promise<string> {
  const script = `import(${JSON.stringify(COMPILED)}).then((m) => m.compiledCli()).then((url) => console.log(url))`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
  return fileURLToPath(stdout.trim());
}

/** Static imports only (`import ... from "x"`, `import "x"`): what loading the file loads. */
const STATIC_IMPORT = /^import\s(?:[^;]*?\sfrom\s*)?"([^"]+)";/gm;
/** Any import of a package from npm, static or not (`import("x")` too). */
const ANY_PACKAGE = /(?:from\s*|import\s*\(?\s*)"((?:@[\w.-]+\/)?[\w.-]+)[^"]*"/g;

/** The npm packages loading `file` loads, following the static imports of the copy's own chunks. */
async function loadedPackages(file: string, seen = new Set<string>()): Promise<Set<string>> {
  const packages = new Set<string>();
  if (seen.has(file)) return packages;
  seen.add(file);
  const text = await readFile(file, "utf8");
  for (const [, specifier = ""] of text.matchAll(STATIC_IMPORT)) {
    if (specifier.startsWith(".")) {
      for (const name of await loadedPackages(join(dirname(file), specifier), seen))
        packages.add(name);
    } else packages.add(specifier);
  }
  return packages;
}

describe("the compiled CLI", () => {
  it("loads none of the AWS SDK, the MCP SDK or the interpreter at start (only the command that runs does), while its chunks import all three", async () => {
    const entry = await entryFile();
    const atStart = [...(await loadedPackages(entry))];
    expect(atStart.filter((name) => HEAVY.some((heavy) => name.startsWith(heavy)))).toEqual([]);
    const chunks = await run("find", [join(dirname(entry), "chunks"), "-name", "*.mjs"]);
    const everywhere = new Set<string>();
    for (const file of chunks.stdout.trim().split("\n"))
      for (const [, name = ""] of (await readFile(file, "utf8")).matchAll(ANY_PACKAGE))
        everywhere.add(name);
    for (const heavy of HEAVY) expect([...everywhere], heavy).toContain(heavy);
  });
});
