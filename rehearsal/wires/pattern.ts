/**
 * EventBridge event patterns, compiled once when the bus is built: exact values (strings, numbers,
 * booleans, null), prefix, suffix, equals-ignore-case, wildcard, anything-but, exists, numeric,
 * nested fields and `$or`. A field holding an array matches when any element does. An operator
 * not listed here throws at compile time, naming it, so no rule silently fails to match.
 * (docs.aws.amazon.com/eventbridge/latest/userguide/eb-create-pattern-operators.html)
 */
import { isRecord } from "./template.ts";

type Leaf = (value: unknown) => boolean;
export type Pattern = (event: unknown) => boolean;

const NUMERIC_OPS: Record<string, (a: number, b: number) => boolean> = {
  "=": (a, b) => a === b,
  "<": (a, b) => a < b,
  "<=": (a, b) => a <= b,
  ">": (a, b) => a > b,
  ">=": (a, b) => a >= b,
};

function numeric(spec: unknown, where: string): Leaf {
  if (!Array.isArray(spec) || spec.length === 0 || spec.length % 2) {
    throw new Error(`${where}: numeric takes operator/number pairs, got ${JSON.stringify(spec)}`);
  }
  const checks: ((v: number) => boolean)[] = [];
  for (let i = 0; i < spec.length; i += 2) {
    const compare = NUMERIC_OPS[String(spec[i])];
    const bound = spec[i + 1];
    if (!compare || typeof bound !== "number") {
      throw new Error(`${where}: bad numeric comparison ${JSON.stringify(spec.slice(i, i + 2))}`);
    }
    checks.push((v) => compare(v, bound));
  }
  return (v) => typeof v === "number" && checks.every((check) => check(v));
}

/** A `*` glob over the whole string, `\*` standing for a literal star. */
function wildcard(glob: string): Leaf {
  const source = glob
    .split(/(\\\*|\*)/)
    .map((part) =>
      part === "*" ? ".*" : part.replace(/\\\*/g, "*").replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
  const re = new RegExp(`^${source}$`, "s");
  return (v) => typeof v === "string" && re.test(v);
}

/** `prefix` and `suffix` take a string, or `{ "equals-ignore-case": string }`. */
function affix(kind: "prefix" | "suffix", spec: unknown, where: string): Leaf {
  const caseless = isRecord(spec) && typeof spec["equals-ignore-case"] === "string";
  const text = caseless ? String(spec["equals-ignore-case"]) : spec;
  if (typeof text !== "string") throw new Error(`${where}: ${kind} takes a string`);
  const norm = (s: string) => (caseless ? s.toLowerCase() : s);
  const want = norm(text);
  return (v) =>
    typeof v === "string" &&
    (kind === "prefix" ? norm(v).startsWith(want) : norm(v).endsWith(want));
}

function anythingBut(spec: unknown, where: string): Leaf {
  if (isRecord(spec)) {
    const inner = operator(spec, where);
    return (v) => v !== undefined && !inner(v);
  }
  const values = Array.isArray(spec) ? spec : [spec];
  const excluded = values.map((value) => exact(value, where));
  return (v) => v !== undefined && !excluded.some((match) => match(v));
}

function exact(value: unknown, where: string): Leaf {
  if (value === null) return (v) => v === null;
  if (["string", "number", "boolean"].includes(typeof value)) return (v) => v === value;
  throw new Error(`${where}: ${JSON.stringify(value)} is not a value a pattern can match`);
}

/** One `{ operator: spec }` object of a pattern's array. */
function operator(spec: Record<string, unknown>, where: string): Leaf {
  const keys = Object.keys(spec);
  const [name] = keys;
  if (keys.length !== 1 || name === undefined) {
    throw new Error(`${where}: a matcher takes one operator, got ${JSON.stringify(spec)}`);
  }
  const arg = spec[name];
  switch (name) {
    case "prefix":
    case "suffix":
      return affix(name, arg, where);
    case "equals-ignore-case": {
      if (typeof arg !== "string") throw new Error(`${where}: equals-ignore-case takes a string`);
      return (v) => typeof v === "string" && v.toLowerCase() === arg.toLowerCase();
    }
    case "wildcard":
      if (typeof arg !== "string") throw new Error(`${where}: wildcard takes a string`);
      return wildcard(arg);
    case "anything-but":
      return anythingBut(arg, where);
    case "numeric":
      return numeric(arg, where);
    default:
      throw new Error(`${where}: the event pattern operator "${name}" is not implemented`);
  }
}

/** Exists matches leaves only: a value present that is not itself an object of fields. */
const isLeaf = (v: unknown) => v !== undefined && !isRecord(v);

function leafField(matchers: unknown[], where: string): Pattern {
  const tests: ((v: unknown) => boolean)[] = matchers.map((m) => {
    if (isRecord(m) && "exists" in m) {
      if (typeof m.exists !== "boolean" || Object.keys(m).length !== 1) {
        throw new Error(`${where}: exists takes true or false`);
      }
      return m.exists ? isLeaf : (v: unknown) => v === undefined;
    }
    const leaf = isRecord(m) ? operator(m, where) : exact(m, where);
    // A field holding an array matches when any of its elements does.
    return (v: unknown) => v !== undefined && (Array.isArray(v) ? v.some((e) => leaf(e)) : leaf(v));
  });
  return (v) => tests.some((test) => test(v));
}

export function compilePattern(pattern: unknown, where: string): Pattern {
  if (!isRecord(pattern)) throw new Error(`${where}: an event pattern is a JSON object`);
  const fields = Object.entries(pattern).map(([key, spec]): Pattern => {
    const at = `${where} at ${key}`;
    if (key === "$or") {
      if (!Array.isArray(spec) || spec.length < 2) throw new Error(`${at}: $or takes 2+ patterns`);
      const options = spec.map((option, i) => compilePattern(option, `${at}[${i}]`));
      return (event) => options.some((option) => option(event));
    }
    if (Array.isArray(spec)) {
      const field = leafField(spec, at);
      return (event) => field(isRecord(event) ? event[key] : undefined);
    }
    const nested = compilePattern(spec, at);
    return (event) => {
      const value = isRecord(event) ? event[key] : undefined;
      return Array.isArray(value) ? value.some((e) => nested(e)) : nested(value);
    };
  });
  return (event) => fields.every((field) => field(event));
}
