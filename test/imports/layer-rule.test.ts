/**
 * The import rules of .dependency-cruiser.cjs, run by `npm run check`, on small trees laid out like
 * the repository: a clean one passes, and each kind of bad import is reported by its rule with a
 * non-zero exit, so the check cannot pass by matching nothing.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const repo = resolve(import.meta.dirname, "../..");
const depcruise = join(repo, "node_modules/.bin/depcruise");
const config = join(repo, ".dependency-cruiser.cjs");

const CLEAN: Record<string, string> = {
  "tsconfig.json": JSON.stringify({
    compilerOptions: { module: "Preserve", allowImportingTsExtensions: true, noEmit: true },
  }),
  "packages/core/src/domain/rule.ts": "export const limit = 3;\n",
  "packages/core/src/domain/index.ts": 'export { limit } from "./rule.ts";\n',
  "packages/core/src/usecases/ports.ts": "export interface Store { get(): number }\n",
  "packages/core/src/usecases/act.ts":
    'import { limit } from "../domain/rule.ts";\nimport type { Store } from "./ports.ts";\nexport const act = (s: Store) => s.get() < limit;\n',
  "packages/core/src/adapters/table.ts":
    'import type { Store } from "../usecases/ports.ts";\nexport class Table implements Store { get() { return 1; } }\n',
  "packages/core/src/adapters/index.ts": 'export { Table } from "./table.ts";\n',
  "packages/core/src/wiring/index.ts":
    'import { Table } from "../adapters/table.ts";\nimport { act } from "../usecases/act.ts";\nexport const run = () => act(new Table());\n',
  "packages/api/src/route.ts":
    'import { limit } from "../../core/src/domain/index.ts";\nexport const route = limit;\n',
};

/** One bad import per rule: the first file of each is the one the rule names. */
const BAD: { rule: string; files: Record<string, string> }[] = [
  {
    rule: "domain-imports-only-domain",
    files: {
      "packages/core/src/domain/bad.ts":
        'import { act } from "../usecases/act.ts";\nexport const bad = act;\n',
    },
  },
  {
    rule: "usecases-import-no-adapters",
    files: {
      "packages/core/src/usecases/bad.ts":
        'import type { Table } from "../adapters/table.ts";\nexport type Bad = Table;\n',
    },
  },
  {
    rule: "adapters-import-only-ports-and-domain",
    files: {
      "packages/core/src/adapters/bad.ts":
        'import { run } from "../wiring/index.ts";\nexport const bad = run;\n',
    },
  },
  {
    rule: "adapters-import-only-ports-and-domain",
    files: {
      "packages/core/src/adapters/uses-a-use-case.ts":
        'import { act } from "../usecases/act.ts";\nexport const bad = act;\n',
    },
  },
  {
    rule: "api-on-ports",
    files: {
      "packages/api/src/store.ts":
        'import { Table } from "../../core/src/adapters/index.ts";\nexport const bad = new Table();\n',
    },
  },
  {
    rule: "no-aws-sdk-below-adapters",
    files: {
      "packages/core/src/domain/sdk.ts":
        'import type { S3Client } from "@aws-sdk/client-s3";\nexport type Bad = S3Client;\n',
    },
  },
  {
    rule: "core-only-through-its-exports",
    files: {
      "packages/api/src/bad.ts":
        'import { limit } from "../../core/src/domain/rule.ts";\nexport const bad = limit;\n',
    },
  },
  {
    rule: "no-circular",
    files: {
      "packages/core/src/domain/loop-a.ts":
        'import { b } from "./loop-b.ts";\nexport const a = () => b;\n',
      "packages/core/src/domain/loop-b.ts":
        'import { a } from "./loop-a.ts";\nexport const b = () => a;\n',
    },
  },
];

let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  dirs = [];
});

async function cruise(extra: Record<string, string>): Promise<{ code: number; output: string }> {
  const dir = await mkdtemp(join(tmpdir(), "reelay-layers-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries({ ...CLEAN, ...extra })) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  try {
    const { stdout } = await promisify(execFile)(
      depcruise,
      ["--config", config, "--output-type", "err", "packages"],
      { cwd: dir },
    );
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, output: failed.stdout };
  }
}

describe("the layer rule", () => {
  it("passes a tree whose imports only go down and enter core through an entry", async () => {
    const { code, output } = await cruise({});
    expect(output).toContain("no dependency violations");
    expect(code).toBe(0);
  });

  it("reports each kind of bad import by its rule and exits non-zero", async () => {
    const { code, output } = await cruise(
      Object.fromEntries(BAD.flatMap(({ files }) => Object.entries(files))),
    );
    for (const { rule, files } of BAD) {
      expect(output).toContain(`error ${rule}: ${Object.keys(files)[0]}`);
    }
    expect(code).not.toBe(0);
  });
});
