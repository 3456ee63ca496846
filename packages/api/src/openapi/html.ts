/** The OpenAPI document as plain HTML: every operation with its parameters, examples and error codes. */
import type { OpenApiDocument } from "./document.ts";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** `code` spans in descriptions, the only markup the descriptions use. */
function prose(text: unknown): string {
  return escapeHtml(String(text ?? "")).replace(/`([^`]+)`/g, "<code>$1</code>");
}

function example(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return `<pre>${escapeHtml(text)}</pre>`;
}

/** Open, or the bearer key with the scope the route needs. */
function access(op: Op): string {
  const scopes = op.security?.flatMap((requirement) => requirement.bearer ?? []) ?? [];
  if (op.security === undefined || op.security.length === 0) return " · open";
  return scopes.length === 0
    ? " · Bearer key"
    : ` · Bearer key with scope <code>${escapeHtml(scopes.join(", "))}</code>`;
}

/** The parts of an OpenAPI operation the page shows. */
interface Op {
  summary?: string;
  description?: string;
  security?: { bearer?: string[] }[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { description?: string; content?: Record<string, Media> }>;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  example?: unknown;
}

interface Media {
  example?: unknown;
}

function parametersTable(op: Op): string {
  const parameters = op.parameters ?? [];
  if (parameters.length === 0) return "";
  const rows = parameters
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? "yes" : "no"}</td><td>${prose(p.description)}${p.example === undefined ? "" : ` e.g. <code>${escapeHtml(String(p.example))}</code>`}</td></tr>`,
    )
    .join("");
  return `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>required</th><th>description</th></tr>${rows}</table>`;
}

function requestBody(op: Op): string {
  const content = op.requestBody?.content;
  if (content === undefined) return "";
  return Object.entries(content)
    .map(
      ([type, media]) =>
        `<h4>Request <small>${escapeHtml(type)}</small></h4>${example(media.example)}`,
    )
    .join("");
}

function responses(op: Op): string {
  const entries = Object.entries(op.responses ?? {});
  const ok = entries.filter(([status]) => status.startsWith("2"));
  const errors = entries.filter(([status]) => !status.startsWith("2"));
  const okHtml = ok
    .map(([status, response]) =>
      Object.entries(response.content ?? {})
        .map(
          ([type, media]) =>
            `<h4>Response ${escapeHtml(status)} <small>${escapeHtml(type)}</small></h4>${example(media.example)}`,
        )
        .join(""),
    )
    .join("");
  const errorRows = errors
    .map(
      ([status, response]) =>
        `<tr><td>${escapeHtml(status)}</td><td>${prose(response.description)}</td></tr>`,
    )
    .join("");
  return (
    okHtml +
    (errorRows === ""
      ? ""
      : `<h4>Errors</h4><table><tr><th>status</th><th>codes and when</th></tr>${errorRows}</table>`)
  );
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
section{border-top:1px solid #ddd;padding:1rem 0}h3{font-family:ui-monospace,monospace}
.method{display:inline-block;min-width:4.5rem;font-weight:bold}.get{color:#06c}.post{color:#080}.delete{color:#b00}
pre{background:#f6f6f6;padding:.6rem;overflow:auto;font-size:13px}table{border-collapse:collapse}
td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}nav a{display:block}`;

export function renderDocsPage(document: OpenApiDocument): string {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op: op as Op })),
  );
  const anchor = (method: string, path: string) =>
    `${method}${path}`.replace(/[^A-Za-z0-9]+/g, "-");
  const nav = operations
    .map(
      ({ path, method, op }) =>
        `<a href="#${anchor(method, path)}">${method.toUpperCase()} ${escapeHtml(path)}</a> ${escapeHtml(op.summary ?? "")}`,
    )
    .join("\n");
  const sections = operations
    .map(
      ({ path, method, op }) => `<section id="${anchor(method, path)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> ${escapeHtml(path)}</h3>
<p><strong>${escapeHtml(op.summary ?? "")}</strong>${access(op)}</p>
<p>${prose(op.description)}</p>
${parametersTable(op)}${requestBody(op)}${responses(op)}
</section>`,
    )
    .join("\n");
  const info = document.info as { title?: string; description?: string };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(info.title ?? "API")} API</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(info.title ?? "API")} API</h1><p>${prose(info.description)}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${escapeHtml(document.openapi)}).</p>
<nav>${nav}</nav>
${sections}
</body></html>
`;
}
