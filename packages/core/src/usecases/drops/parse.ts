/**
 * What a file dropped into `inbox/` asks for. Pure: no S3 here, so every rule is testable alone.
 *
 *   inbox/x.json   one request, or {"requests": [...]}
 *   inbox/x.jsonl  one request per non-blank line
 *   inbox/x.txt    a prompt for the configured default model
 *   images, videos and audio beside them are material, referenced by bare file name
 */
import type { Issue } from "../../domain/errors.ts";

export type DropFileType = "json" | "jsonl" | "txt" | "material" | "unsupported";

const MATERIAL_EXTENSIONS = new Set([
  "png",
  "jpg",
  "jpeg",
  "webp",
  "gif",
  "bmp",
  "mp4",
  "mov",
  "webm",
  "mkv",
  "mp3",
  "wav",
  "m4a",
  "aac",
  "ogg",
]);

/** Prompt files end in .json, .jsonl or .txt; material is left alone; anything else is rejected. */
export function classifyDropKey(key: string): DropFileType {
  const name = key.slice(key.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
  if (extension === "json" || extension === "jsonl" || extension === "txt") return extension;
  return MATERIAL_EXTENSIONS.has(extension) ? "material" : "unsupported";
}

/** One request found in a drop file. `line` is 1-based for .jsonl, `index` the position in `requests`. */
export interface DropEntry {
  line?: number;
  index?: number;
  body: unknown;
}

/** A problem with a drop file, located by line (jsonl) or request index (json) and field path. */
export interface DropIssue extends Issue {
  line?: number;
  index?: number;
}

export interface ParsedDrop {
  entries: DropEntry[];
  errors: DropIssue[];
}

/** Large enough for any real batch, small enough that a stray huge file cannot fan out forever. */
export const MAX_REQUESTS_PER_DROP = 1000;

export function parseDropFile(
  key: string,
  text: string,
  options: { defaultModel: string },
): ParsedDrop {
  const type = classifyDropKey(key);
  switch (type) {
    case "txt":
      return parseTxt(text, options.defaultModel);
    case "json":
      return refuseDeepNesting(parseJson(text));
    case "jsonl":
      return refuseDeepNesting(parseJsonl(text));
    default:
      return {
        entries: [],
        errors: [
          {
            path: "",
            code: "unsupported_drop_file",
            message: `Files in inbox/ must end in .json, .jsonl or .txt (or be material such as .png or .mp4 referenced by one); "${key}" is neither.`,
          },
        ],
      };
  }
}

function parseTxt(text: string, defaultModel: string): ParsedDrop {
  const prompt = text.replace(/^\uFEFF/, "").trim();
  if (prompt === "") {
    return {
      entries: [],
      errors: [
        {
          path: "",
          code: "empty_drop_file",
          message: "The .txt file is empty; write the prompt in it.",
        },
      ],
    };
  }
  return { entries: [{ body: { model: defaultModel, prompt } }], errors: [] };
}

function parseJson(text: string): ParsedDrop {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    return {
      entries: [],
      errors: [
        {
          path: "",
          code: "invalid_json",
          message: `The file is not valid JSON: ${(error as Error).message}.`,
        },
      ],
    };
  }
  if (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    Object.hasOwn(value, "requests")
  ) {
    const requests = (value as { requests: unknown }).requests;
    if (!Array.isArray(requests) || requests.length === 0) {
      return {
        entries: [],
        errors: [
          {
            path: "requests",
            code: "invalid_type",
            message: "`requests` must be a non-empty array of request objects.",
          },
        ],
      };
    }
    if (requests.length > MAX_REQUESTS_PER_DROP) return tooMany(requests.length);
    return { entries: requests.map((body, index) => ({ index, body })), errors: [] };
  }
  return { entries: [{ body: value }], errors: [] };
}

function parseJsonl(text: string): ParsedDrop {
  const entries: DropEntry[] = [];
  const errors: DropIssue[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((raw, i) => {
    if (raw.trim() === "") return;
    try {
      entries.push({ line: i + 1, body: JSON.parse(raw) });
    } catch (error) {
      errors.push({
        line: i + 1,
        path: "",
        code: "invalid_json",
        message: `Line ${i + 1} is not valid JSON: ${(error as Error).message}.`,
      });
    }
  });
  if (entries.length + errors.length > MAX_REQUESTS_PER_DROP)
    return tooMany(entries.length + errors.length);
  if (entries.length === 0 && errors.length === 0) {
    errors.push({
      path: "",
      code: "empty_drop_file",
      message: "The .jsonl file has no requests; write one JSON request per line.",
    });
  }
  return { entries, errors };
}

function tooMany(count: number): ParsedDrop {
  return {
    entries: [],
    errors: [
      {
        path: "",
        code: "too_many_requests",
        message: `A drop file may hold at most ${MAX_REQUESTS_PER_DROP} requests; this one has ${count}. Split it.`,
      },
    ],
  };
}

/** A request nests a few levels; far deeper input would overflow the stack of code that copies it. */
export const MAX_NESTING = 32;

/** Whether `value` has objects or arrays more than `limit` levels down (iterative: depth is the point). */
function deeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [current, depth] = next;
    if (current === null || typeof current !== "object") continue;
    if (depth >= limit) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}

function refuseDeepNesting(parsed: ParsedDrop): ParsedDrop {
  const entries: DropEntry[] = [];
  const errors = [...parsed.errors];
  for (const entry of parsed.entries) {
    if (!deeperThan(entry.body, MAX_NESTING)) {
      entries.push(entry);
      continue;
    }
    const where = entryLocation(entry);
    errors.push({
      ...(entry.line === undefined ? {} : { line: entry.line }),
      ...(entry.index === undefined ? {} : { index: entry.index }),
      path: "",
      code: "nesting_too_deep",
      message: `The request${where === "" ? "" : ` at ${where}`} is nested more than ${MAX_NESTING} levels deep; a request has only a few levels.`,
    });
  }
  return { entries, errors };
}

/** Where a drop entry's problem is, in words: "line 3", "requests[2]", or "" for a single request. */
export function entryLocation(entry: { line?: number; index?: number }): string {
  if (entry.line !== undefined) return `line ${entry.line}`;
  if (entry.index !== undefined) return `requests[${entry.index}]`;
  return "";
}
