/**
 * How a tool's outcome reads to an agent: a short line to act on, the API's answer as JSON, and
 * every output as a link (resource_link) it can hand on or fetch. A refusal is a tool result with
 * `isError` naming the code, the field and the rule (never a protocol error), so the model sees
 * it and can fix its request.
 */
import { isReelayError, type Job } from "@reelay/client";
import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";

/** A successful tool answer: `summary` first, then the whole answer as JSON, then `extra`. */
export function answer(summary: string, body: unknown, extra: ContentBlock[] = []): CallToolResult {
  return {
    content: [
      { type: "text", text: summary },
      { type: "text", text: JSON.stringify(body, null, 2) },
      ...extra,
    ],
  };
}

/** A refusal the agent can act on, e.g. `invalid_request: duration_sec: ... [duration_not_allowed]`. */
export function refusal(
  code: string,
  message: string,
  issues: readonly Issue[] = [],
): CallToolResult {
  const lines = issues.map(
    (issue) => `- ${issue.path || "(body)"}: ${issue.message} [${issue.code}]`,
  );
  return {
    isError: true,
    content: [{ type: "text", text: [`${code}: ${message}`, ...lines].join("\n") }],
  };
}

interface Issue {
  path: string;
  code: string;
  message: string;
}

/** Hints for refusals an agent cannot fix by changing its request. */
const HINTS: Record<string, string> = {
  unauthorized:
    "The API key was refused: set REELAY_API_KEY (or send another bearer key) to a key reelay knows.",
  key_expired: "The API key has expired: ask for a new one.",
  api_unreachable: "reelay did not answer: check REELAY_API_URL, or start it with `npm start`.",
};

/** A thrown failure as a tool error; anything that is not the API's refusal is rethrown. */
function failure(error: unknown): CallToolResult {
  if (!isReelayError(error)) throw error;
  const issues =
    error.errors.length > 0
      ? error.errors
      : error.path === undefined
        ? []
        : [{ path: error.path, code: error.code, message: error.message }];
  const hint = HINTS[error.code];
  return refusal(
    error.code,
    hint === undefined ? error.message : `${hint} (${error.message})`,
    issues,
  );
}

/** Runs a tool body, its ReelayError as a tool error. */
export async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return failure(error);
  }
}

type Output = { url?: string | null; key?: string; content_type?: string; contentType?: string };

/** Every output of a finished job as a link, with its content type when known. */
export function outputLinks(job: Job): ContentBlock[] {
  const outputs = ((job as { outputs?: Output[] }).outputs ?? []) as Output[];
  return outputs.flatMap((output, index) =>
    typeof output.url === "string"
      ? [
          {
            type: "resource_link" as const,
            uri: output.url,
            name: output.key?.split("/").pop() ?? `${job.id}-${index + 1}`,
            ...mimeOf(output),
          },
        ]
      : [],
  );
}

function mimeOf(output: Output): { mimeType?: string } {
  const type = output.content_type ?? output.contentType;
  return type === undefined ? {} : { mimeType: type };
}

/** One line about a job: id, status, and what an agent does next. */
export function jobSummary(job: Job): string {
  const error =
    job.error === null || job.error === undefined ? "" : ` ${job.error.code}: ${job.error.message}`;
  const queue =
    typeof job.queue_position === "number" ? ` (queue position ${job.queue_position})` : "";
  const links = outputLinks(job).length;
  const next =
    job.status === "succeeded"
      ? ` ${links} output link${links === 1 ? "" : "s"} below.`
      : job.status === "failed" || job.status === "cancelled"
        ? ""
        : " Call wait_for_job with this job_id to follow it to its end.";
  return `${job.id} ${job.status}${queue}${error}.${next}`;
}
