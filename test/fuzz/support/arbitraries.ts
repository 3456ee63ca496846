/**
 * fast-check arbitraries for fuzzing the API: request bodies derived from the JSON Schemas in the
 * served OpenAPI document (generated from core's zod schemas, so a new field or route is fuzzed
 * without touching this file), junk values, raw-text JSON mutations, multipart forms, path ids and
 * query strings.
 *
 * Replay: every run prints its seed; REELAY_FUZZ_SEED=<seed> runs the same cases again and
 * REELAY_FUZZ_SCALE=<n> multiplies the number of runs.
 */
import fc from "fast-check";

export type JsonSchema = Record<string, unknown>;

const envSeed = Number.parseInt(process.env.REELAY_FUZZ_SEED ?? "", 10);
const scale = Number(process.env.REELAY_FUZZ_SCALE ?? "1");

/** The seed for this run (printed by the caller) and the run count scaled by REELAY_FUZZ_SCALE. */
export const FUZZ_SEED = Number.isSafeInteger(envSeed)
  ? envSeed
  : Math.floor(Math.random() * 2 ** 31);
export function runs(n: number): number {
  return Math.max(1, Math.round(n * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}
export function fuzzParams(numRuns: number): fc.Parameters<unknown> {
  return { seed: FUZZ_SEED, numRuns: runs(numRuns), endOnFailure: true };
}

/** Keys that bite code which copies objects carelessly. */
const PROTOTYPE_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "then",
];

const SPECIAL_STRINGS = [
  "",
  " ",
  "\u0000",
  "\ud800",
  "\udfff\ud800",
  "𝕏🎬",
  "\u202e\u200b",
  "../../etc/passwd",
  "%00",
  "%",
  "null",
  "undefined",
  "NaN",
  "-1",
  "1e309",
  "asset://vidast_x",
  "https://example.com/a.png",
  "http://127.0.0.1:1/x",
  "file:///etc/passwd",
  "<script>alert(1)</script>",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4j-style lookup, literal on purpose.
  "${jndi:ldap://x}",
  "\r\nX-Injected: 1",
  "[[sim:fail]]",
  "\\",
  '"',
  "'",
];

const hugeString = fc
  .tuple(
    fc.constantFrom("x", "é", "漢", "🎬", "\u0000", '\\"'),
    fc.integer({ min: 1_000, max: 300_000 }),
  )
  .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)));

export const anyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 1, arbitrary: hugeString },
);

/** Wrong-typed and odd values for any field. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      1e308,
      -1e-308,
      2 ** 53 + 2,
      [],
      {},
      [null],
      [[[]]],
      { "": "" },
    ),
  },
  { weight: 1, arbitrary: anyString },
  {
    weight: 1,
    arbitrary: fc.array(fc.jsonValue({ maxDepth: 1 }), { minLength: 50, maxLength: 2_000 }),
  },
);

/** Objects are built without a prototype, so `__proto__` becomes an own key that JSON.stringify writes. */
function bare(entries: [string, unknown][]): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of entries) out[key] = value;
  return out;
}

const ABSENT = Symbol("absent");

function stringFor(schema: JsonSchema, hints: readonly string[]): fc.Arbitrary<string> {
  const known = hints.length > 0 ? [{ weight: 4, arbitrary: fc.constantFrom(...hints) }] : [];
  const max = typeof schema.maxLength === "number" ? schema.maxLength : undefined;
  const bounds =
    max === undefined
      ? []
      : [{ weight: 1, arbitrary: fc.constantFrom("x".repeat(max), "x".repeat(max + 1)) }];
  return fc.oneof(...known, ...bounds, { weight: 3, arbitrary: anyString });
}

function integerFor(schema: JsonSchema): fc.Arbitrary<number> {
  const min = typeof schema.minimum === "number" ? schema.minimum : -5;
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: Math.max(min, -5), max: 30 }) },
    { weight: 1, arbitrary: fc.constantFrom(min - 1, min, 2 ** 31, 2 ** 53 - 1, -(2 ** 53)) },
    { weight: 1, arbitrary: fc.double({ noNaN: true }) },
  );
}

/**
 * A value for `schema`: mostly one that fits it (so requests get past the shape and into the model
 * rules and the job store), sometimes junk at any depth. `example` (the OpenAPI example at this
 * position) is kept with high probability, which keeps many bodies valid or nearly so.
 */
function valueFor(
  schema: JsonSchema,
  hints: readonly string[],
  example?: unknown,
  depth = 0,
): fc.Arbitrary<unknown> {
  const fitting = fitting_(schema, hints, example, depth);
  const kept = example === undefined ? [] : [{ weight: 4, arbitrary: fc.constant(example) }];
  return fc.oneof(...kept, { weight: 5, arbitrary: fitting }, { weight: 1, arbitrary: junk });
}

function fitting_(
  schema: JsonSchema,
  hints: readonly string[],
  example: unknown,
  depth: number,
): fc.Arbitrary<unknown> {
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  switch (schema.type) {
    case "object":
      return objectFor(schema, hints, example, depth);
    case "array": {
      const items = (schema.items ?? {}) as JsonSchema;
      const minLength = typeof schema.minItems === "number" ? schema.minItems : 0;
      const maxLength = Math.min(typeof schema.maxItems === "number" ? schema.maxItems + 1 : 4, 8);
      const first = Array.isArray(example) ? example[0] : undefined;
      return fc.array(valueFor(items, hints, first, depth + 1), {
        minLength: Math.max(0, minLength - 1),
        maxLength: Math.max(maxLength, minLength),
      });
    }
    case "string":
      return stringFor(schema, typeof example === "string" ? [example, ...hints] : hints);
    case "integer":
      return integerFor(schema);
    case "number":
      return fc.double();
    case "boolean":
      return fc.boolean();
    default:
      return junk;
  }
}

function objectFor(
  schema: JsonSchema,
  hints: readonly string[],
  example: unknown,
  depth: number,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const given =
    example !== null && typeof example === "object" ? (example as Record<string, unknown>) : {};
  const fields = Object.entries(properties).map(([name, sub]) => {
    const value = valueFor(sub, hints, given[name], depth + 1);
    // Usually present when required or in the example, rarely otherwise; absent sometimes either way.
    const presentWeight = required.has(name) || name in given ? 8 : 1;
    return fc.oneof(
      { weight: presentWeight, arbitrary: value.map((v) => [name, v] as const) },
      { weight: 2, arbitrary: fc.constant(ABSENT) },
    );
  });
  const extraKey = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 12 }));
  const extras = fc.oneof(
    { weight: 4, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.array(fc.tuple(extraKey, junk), { maxLength: 3 }) },
  );
  return fc
    .tuple(fc.tuple(...fields), extras)
    .map(([present, extra]) =>
      bare([
        ...present
          .filter((field) => field !== ABSENT)
          .map((field) => [...field] as [string, unknown]),
        ...extra,
      ]),
    );
}

/**
 * A copy of `value` with one of its strings (the `pick`-th, wherever it sits) replaced by `huge`:
 * a request that is otherwise as valid as it was, with one field far longer than any real one.
 */
function inflate(value: unknown, pick: number, huge: string): unknown {
  const copy: unknown = JSON.parse(JSON.stringify(value) ?? "null");
  const slots: [Record<string, unknown>, string][] = [];
  const walk = (node: unknown) => {
    if (node === null || typeof node !== "object") return;
    for (const [key, child] of Object.entries(node)) {
      if (typeof child === "string") slots.push([node as Record<string, unknown>, key]);
      else walk(child);
    }
  };
  walk(copy);
  const slot = slots[pick % Math.max(1, slots.length)];
  if (slot !== undefined) slot[0][slot[1]] = huge;
  return copy;
}

/** `depth` levels of arrays or objects, deeper than any recursive code could follow. */
function nested(depth: number, arrays: boolean): string {
  return arrays
    ? "[".repeat(depth) + "]".repeat(depth)
    : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

/** Raw-text JSON that JSON.stringify cannot make: deep nesting, duplicate keys, a BOM, truncation, literals JSON lacks. */
export function jsonTextFor(
  schema: JsonSchema,
  hints: readonly string[],
  example: unknown,
): fc.Arbitrary<string> {
  const value = valueFor(schema, hints, example);
  const names = Object.keys((schema.properties ?? {}) as object);
  const field = names.length > 0 ? fc.constantFrom(...names) : fc.constant("x");
  const splice = (text: string, member: string) =>
    text.startsWith("{") && text.length > 2 ? `{${member},${text.slice(1)}` : `{${member}}`;
  return fc.oneof(
    { weight: 8, arbitrary: value.map((v) => JSON.stringify(v) ?? "null") },
    {
      weight: 1,
      arbitrary: fc
        .tuple(value, field, fc.integer({ min: 1, max: 150_000 }), fc.boolean())
        .map(([v, name, depth, arrays]) =>
          splice(JSON.stringify(v) ?? "{}", `${JSON.stringify(name)}:${nested(depth, arrays)}`),
        ),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(value, fc.nat(), fc.integer({ min: 200_000, max: 1_000_000 }))
        .map(([v, pick, n]) => JSON.stringify(inflate(v, pick, "x".repeat(n))) ?? "null"),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(value, field, junk)
        .map(([v, name, other]) =>
          splice(JSON.stringify(v) ?? "{}", `${JSON.stringify(name)}:${JSON.stringify(other)}`),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(value, fc.jsonValue({ maxDepth: 2 }))
        .map(([v, p]) =>
          splice(
            JSON.stringify(v) ?? "{}",
            `"__proto__":${JSON.stringify(p)},"constructor":{"prototype":{"polluted":true}}`,
          ),
        ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(value, fc.nat()).map(([v, cut]) => {
        const text = JSON.stringify(v) ?? "";
        return text.slice(0, cut % (text.length + 1));
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          value,
          fc.constantFrom(
            "\uFEFF",
            " \n\t",
            "NaN",
            "Infinity",
            "undefined",
            "//",
            ",",
            "}",
            "\u0000",
          ),
        )
        .map(([v, bit]) => `${bit}${JSON.stringify(v)}${bit}`),
    },
  );
}

/** Random bytes with a random, wrong or missing Content-Type. */
export const randomBody = fc.record({
  bytes: fc.oneof(
    fc.uint8Array({ maxLength: 2_048 }),
    fc.uint8Array({ minLength: 10_000, maxLength: 100_000 }),
  ),
  contentType: fc.option(
    fc.oneof(
      fc.constantFrom(
        "application/json",
        "application/json; charset=utf-16",
        "text/plain",
        "application/octet-stream",
        "multipart/form-data",
        "multipart/form-data; boundary=",
        "multipart/form-data; boundary=x",
        "application/x-www-form-urlencoded",
        "image/png",
        "*/*",
        "",
      ),
      fc.string({ maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, "")),
    ),
    { nil: undefined },
  ),
});

// --- multipart/form-data for POST /v1/images/edits -------------------------------------------

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff, 0xe0];
const fileBytes = fc.oneof(
  fc.uint8Array({ maxLength: 512 }).map((rest) => Uint8Array.from([...PNG, ...rest])),
  fc.uint8Array({ maxLength: 512 }).map((rest) => Uint8Array.from([...JPEG, ...rest])),
  fc.uint8Array({ maxLength: 512 }),
  fc.constant(new Uint8Array(0)),
);

const fieldName = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      "image",
      "image[]",
      "prompt",
      "model",
      "n",
      "size",
      "response_format",
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("", "image[0]", "__proto__", "IMAGE", 'na"me', "na\\me", "é"),
  },
);
const fieldValue = fc.oneof(
  fc.constantFrom(
    "deltaq2-image",
    "1",
    "0",
    "-1",
    "99",
    "2K",
    "url",
    "b64_json",
    "replace the sky",
  ),
  anyString.filter((s) => s.length < 5_000),
);

interface Part {
  name: string;
  file?: { filename: string; type: string; bytes: Uint8Array };
  value?: string;
}

const part: fc.Arbitrary<Part> = fc.oneof(
  fc.record({ name: fieldName, value: fieldValue }),
  fc.record({
    name: fc.oneof(fc.constantFrom("image", "image[]"), fieldName),
    file: fc.record({
      filename: fc.oneof(
        fc.constantFrom("a.png", "", "../../x.png", "a\u0000.png", "漢.jpg", "x".repeat(300)),
        fc.string({ maxLength: 20 }),
      ),
      type: fc.constantFrom(
        "image/png",
        "image/jpeg",
        "application/octet-stream",
        "text/plain",
        "",
        "image/png; charset=x",
      ),
      bytes: fileBytes,
    }),
  }),
);

const quoted = (s: string) => s.replace(/["\r\n]/g, "_");

function encodePart(p: Part, lf: string): Buffer {
  const head =
    p.file === undefined
      ? `Content-Disposition: form-data; name="${quoted(p.name)}"`
      : `Content-Disposition: form-data; name="${quoted(p.name)}"; filename="${quoted(p.file.filename)}"${lf}Content-Type: ${p.file.type}`;
  return Buffer.concat([
    Buffer.from(`${head}${lf}${lf}`, "utf8"),
    p.file === undefined ? Buffer.from(p.value ?? "", "utf8") : Buffer.from(p.file.bytes),
  ]);
}

export interface MultipartCase {
  contentType: string;
  body: Buffer;
}

/** Mostly well-formed forms with odd parts; sometimes broken framing, boundaries or headers. */
export const multipartBody: fc.Arbitrary<MultipartCase> = fc
  .record({
    boundary: fc.oneof(
      fc.constant("----reelayfuzz"),
      fc.stringMatching(/^[0-9A-Za-z'()+_,./:=?-]{1,70}$/),
      fc.constant("x".repeat(200)),
    ),
    parts: fc.oneof(
      { weight: 5, arbitrary: fc.array(part, { maxLength: 6 }) },
      { weight: 1, arbitrary: fc.array(part, { minLength: 8, maxLength: 40 }) },
    ),
    lf: fc.constantFrom("\r\n", "\r\n", "\r\n", "\n"),
    closing: fc.constantFrom("--", "--", "--", "", "-"),
    header: fc.constantFrom(
      "ok",
      "ok",
      "ok",
      "quoted",
      "missing",
      "empty",
      "other",
      "mixed",
      "upper",
    ),
    cut: fc.option(fc.nat(), { freq: 5 }),
    preamble: fc.constantFrom("", "", "preamble junk\r\n", "\r\n"),
  })
  .map(({ boundary, parts, lf, closing, header, cut, preamble }) => {
    const chunks: Buffer[] = [Buffer.from(preamble)];
    for (const p of parts)
      chunks.push(Buffer.from(`--${boundary}${lf}`), encodePart(p, lf), Buffer.from(lf));
    chunks.push(Buffer.from(`--${boundary}${closing}${lf}`));
    let body = Buffer.concat(chunks);
    if (cut !== null) body = body.subarray(0, cut % (body.length + 1));
    const contentType = {
      ok: `multipart/form-data; boundary=${boundary}`,
      quoted: `multipart/form-data; boundary="${boundary}"`,
      missing: "multipart/form-data",
      empty: "multipart/form-data; boundary=",
      other: "multipart/form-data; boundary=not-the-one-used",
      mixed: `multipart/mixed; boundary=${boundary}`,
      upper: `MULTIPART/FORM-DATA; BOUNDARY=${boundary}`,
    }[header]!;
    return { contentType, body };
  });

// --- path ids and query strings -------------------------------------------------------------------

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** Path segments, already on-the-wire (percent-encoded or deliberately broken). */
export const pathSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "%00",
    "..",
    "%2e%2e",
    "..%2F..%2Fetc%2Fpasswd",
    "%2F",
    "%",
    "%E0%A4%A",
    "%FF%FE",
    "%C0%AF",
    "%uD800",
    "%20",
    "+",
    "null",
    "undefined",
    "__proto__",
    "constructor",
    "~",
    ".",
    "%0D%0AX-Injected:%201",
  ),
  fc.constantFrom("vidtsk_", "imgtsk_", "key_").chain((prefix) =>
    fc.oneof(
      fc
        .array(fc.constantFrom(...CROCKFORD), { minLength: 26, maxLength: 26 })
        .map((chars) => prefix + chars.join("")),
      fc.string({ maxLength: 30 }).map((rest) => encodeURIComponent(prefix + rest)),
    ),
  ),
  fc
    .string({ unit: "binary", maxLength: 40 })
    .map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, "\ufffd"))),
  fc.integer({ min: 100, max: 7_000 }).map((n) => "x".repeat(n)),
  fc.integer({ min: 100, max: 2_000 }).map((n) => "%C3%A9".repeat(n)),
);

/** What the request line can carry: anything outside printable ASCII percent-encoded, the rest as is. */
function onTheWire(text: string): string {
  return text.replace(/[^\x21-\x7e]/gu, (char) =>
    encodeURIComponent(char.replace(/[\ud800-\udfff]/g, "\ufffd")),
  );
}

const queryValue = fc.oneof(
  fc.constantFrom(
    "-1",
    "0",
    "1",
    "1e9",
    "1e309",
    "NaN",
    "Infinity",
    "0x10",
    "10.5",
    " 5",
    "5 ",
    "１",
    "",
    "%",
    "%00",
    "%FF",
    "a%20b",
    "null",
    "[]",
    "{}",
    "true",
  ),
  fc.string({ maxLength: 30 }),
  // Long, but four of them stay under Node's 16 KiB request-head limit (past it the answer is 431, tested once).
  fc.integer({ min: 500, max: 2_500 }).map((n) => "z".repeat(n)),
);

const base64url = (text: string) => Buffer.from(text).toString("base64url");

/** Near-misses of a real cursor, `[id, "<createdAt>#<id>"]`: odd times, sort keys too long for DynamoDB, other ids. */
const nearMissCursor = fc
  .record({
    id: fc.constantFrom(
      "vidtsk_01JD8Z9Q6W4S7Y3K2M1N0P5R8T",
      "imgtsk_01JD8ZA1B2C3D4E5F6G7H8J9K0",
      "x",
      "",
    ),
    at: fc.oneof(
      { weight: 1, arbitrary: fc.constant("2026-11-22T00:00:00.000Z") },
      { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
      { weight: 2, arbitrary: fc.integer({ min: 1_100, max: 2_400 }).map((n) => "9".repeat(n)) },
    ),
    tail: fc.constantFrom("", "", "", "x", "#"),
  })
  .map(({ id, at, tail }) => base64url(JSON.stringify([id, `${at}#${id}${tail}`])));

/** Any cursor garbage: plain values, random base64url, base64url JSON, near-misses. */
const cursorValue = fc.oneof(
  queryValue,
  fc.uint8Array({ maxLength: 120 }).map((bytes) => Buffer.from(bytes).toString("base64url")),
  fc.jsonValue({ maxDepth: 2 }).map((v) => base64url(JSON.stringify(v) ?? "")),
  nearMissCursor,
);

/** A documented query parameter, as the OpenAPI document lists it. */
export interface QueryParam {
  name: string;
  schema: JsonSchema;
  example?: string;
}

/** A value the parameter takes: one of its enum, an integer in range, its example or a known string. */
function fittingQueryValue(param: QueryParam, hints: readonly string[]): fc.Arbitrary<string> {
  const { schema } = param;
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as string[]));
  if (schema.type === "integer") {
    const min = typeof schema.minimum === "number" ? schema.minimum : 0;
    const max = typeof schema.maximum === "number" ? schema.maximum : 100;
    return fc.integer({ min, max }).map(String);
  }
  if (param.name === "cursor") return nearMissCursor;
  const example =
    param.example === undefined ? [] : [{ weight: 3, arbitrary: fc.constant(param.example) }];
  const known = hints.length === 0 ? [] : [{ weight: 1, arbitrary: fc.constantFrom(...hints) }];
  return example.length + known.length > 0 ? fc.oneof(...example, ...known) : queryValue;
}

/**
 * A query string (without `?`): each documented parameter absent, fitting or garbage, so most
 * queries get past the other parameters to the one that is wrong; plus unknown and repeated names.
 */
export function queryFor(
  params: readonly QueryParam[],
  hints: readonly string[] = [],
): fc.Arbitrary<string> {
  const garbageFor = (name: string) => (name === "cursor" ? cursorValue : queryValue);
  const documented = params.map((param) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant<string | undefined>(undefined) },
      {
        weight: 4,
        arbitrary: fittingQueryValue(param, hints).map((v) => `${param.name}=${onTheWire(v)}`),
      },
      { weight: 1, arbitrary: garbageFor(param.name).map((v) => `${param.name}=${onTheWire(v)}`) },
    ),
  );
  const extraName = fc.oneof(
    fc.constantFrom("__proto__", "constructor", "", "limit[]", "a%00"),
    ...(params.length > 0 ? [fc.constantFrom(...params.map((p) => p.name))] : []),
  );
  const extras = fc.array(
    fc.tuple(extraName, queryValue).map(([n, v]) => (v === "" ? n : `${n}=${onTheWire(v)}`)),
    { maxLength: 2 },
  );
  return fc
    .tuple(fc.tuple(...documented), extras)
    .map(([given, more]) => [...given.filter((part) => part !== undefined), ...more].join("&"));
}

const printable = (max: number) =>
  fc.string({ maxLength: max }).map((v) => v.replace(/[^\x20-\x7e]/g, ""));

/** Optional request headers the routes read or might trip on, with odd values. */
export const oddHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    "x-idempotency-key": fc.oneof(
      printable(40),
      fc.constantFrom("", " ", "k".repeat(255), "k".repeat(256), "fuzz-key-1", "fuzz-key-1 "),
    ),
    prefer: fc.oneof(
      printable(40),
      fc.constantFrom(
        "wait=0",
        "wait=1",
        "respond-async, wait=3",
        "wait=-1",
        "wait=1e3",
        'wait="2"',
      ),
    ),
    "content-encoding": fc.constantFrom("gzip", "br", "identity", "x"),
    accept: fc.constantFrom("text/html", "*/*", "application/xml", ""),
    "x-forwarded-for": printable(30),
  },
  { requiredKeys: [] },
);

/** Authorization headers that must all be refused. */
export const badAuthorization: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(
    "",
    "Bearer",
    "Bearer ",
    "Bearer  ",
    "bearer x",
    "Basic dXNlcjpwYXNz",
    "Token abc",
    "Bearer a b",
    "Bearer \t",
    "Bearer rl_live_",
    `Bearer ${"k".repeat(6_000)}`,
  ),
  fc.string({ maxLength: 80 }).map((s) => s.replace(/[^\x20-\x7e\t]/g, "")),
  fc.string({ maxLength: 80 }).map((s) => `Bearer ${s.replace(/[^\x21-\x7e]/g, "")}`),
);
