/**
 * The docs say what the code does: the generated pages equal what scripts/docs.ts makes from the
 * code, every setting the code reads is on the settings page, every link resolves inside the
 * repository, and every contract section the code cites exists in docs/contract.md.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { loadConfig, SETTINGS } from "@reelay/core/wiring";
import { describe, expect, it } from "vitest";
import { generatedPages, ROOT, SETTINGS_PAGE } from "../../scripts/docs.ts";

const read = (path: string): string => readFileSync(join(ROOT, path), "utf8");

/** The repository's files as git sees them: tracked, and new ones not ignored. */
const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: ROOT,
  encoding: "utf8",
})
  .split("\n")
  .filter((path) => path !== "" && existsSync(join(ROOT, path)));
const code = files.filter((path) => /\.(ts|mjs|js)$/.test(path));
const text = files.filter((path) => /\.(ts|mjs|js|md|jsonc?|ya?ml|html|css|sh)$/.test(path));
const pages = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const match of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchor(match[1] ?? "");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

describe("the docs", () => {
  for (const [path, expected] of Object.entries(generatedPages())) {
    it(`${path} is what the code says (run \`npm run docs\` to rewrite it)`, () => {
      expect(read(path), `${path} differs from the code: run \`npm run docs\``).toBe(expected);
    });
  }

  it("README.md stays a five-minute read: at most 200 lines, the rest in docs/", () => {
    expect(read("README.md").split("\n").length).toBeLessThanOrEqual(200);
  });

  it("SETTINGS lists exactly the variables loadConfig reads", () => {
    const asked = new Set<string>();
    const env = new Proxy({} as Record<string, string | undefined>, {
      get: (_, name) => {
        if (typeof name === "string") asked.add(name);
        return undefined;
      },
    });
    loadConfig(env);
    expect([...asked].sort()).toEqual(Object.keys(SETTINGS).sort());
  });

  it("the settings page names every REELAY_ variable the code mentions", () => {
    const page = read(SETTINGS_PAGE);
    const missing = new Set<string>();
    for (const path of code) {
      for (const [name] of read(path).matchAll(/\bREELAY_[A-Z0-9_]*[A-Z0-9]\b/g)) {
        if (!page.includes(`\`${name}\``)) missing.add(`${name} (${path})`);
      }
    }
    expect([...missing]).toEqual([]);
  });

  it("every relative link in README.md and docs/ points to a file (and heading) in the repository", () => {
    const broken: string[] = [];
    for (const page of pages) {
      const text = read(page);
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (target === undefined || /^[a-z]+:/.test(target)) continue;
        const [path = "", fragment] = target.split("#");
        const file = path === "" ? page : join(dirname(page), path);
        if (relative(ROOT, join(ROOT, file)).startsWith("..") || !existsSync(join(ROOT, file))) {
          broken.push(`${page}: ${target}`);
        } else if (fragment !== undefined && file.endsWith(".md")) {
          if (!anchors(read(file)).has(fragment)) broken.push(`${page}: ${target}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("every repository path README.md and docs/ name in backticks exists", () => {
    const gone: string[] = [];
    for (const page of pages) {
      const named = read(page).matchAll(
        /`((?:packages|test|functions|stacks|bench|soak|scripts)\/[^`\s<*]*)`/g,
      );
      for (const [, path = ""] of named) {
        // A handler is named as file.export (functions/webhook.sweep).
        const candidates = [path, path.replace(/\.\w+$/, ".ts")];
        if (!candidates.some((candidate) => existsSync(join(ROOT, candidate)))) {
          gone.push(`${page}: ${path}`);
        }
      }
    }
    expect(gone).toEqual([]);
  });

  it("nothing in the repository points at the shared folder outside it", () => {
    const outside = ["..", "shared"].join("/");
    const found = text.filter(
      (path) => !path.endsWith("package-lock.json") && read(path).includes(outside),
    );
    expect(found).toEqual([]);
  });

  it("every contract section the code cites is a section of docs/contract.md", () => {
    const contract = read("docs/contract.md");
    const sections = new Set([
      ...[...contract.matchAll(/^#{2,4} §?(\d+(?:\.\d+)*)\.? /gm)].map((m) => m[1]),
      ...[...contract.matchAll(/\*\*§?(\d+\.\d+)\*\*/g)].map((m) => m[1]),
    ]);
    const missing = new Set<string>();
    for (const path of code) {
      // Every § in the code is the contract's, but for an RFC's own sections ("RFC 9110 §10.2.3").
      for (const [, rfc, section] of read(path).matchAll(/(RFC \d+ )?§([\d.]*\d)/g)) {
        if (rfc === undefined && section !== undefined && !sections.has(section)) {
          missing.add(`§${section} (${path})`);
        }
      }
    }
    expect([...missing]).toEqual([]);
  });
});
