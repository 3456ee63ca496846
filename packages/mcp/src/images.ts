/**
 * A finished image job's images as MCP image content, for a client that shows them inline. Each is
 * read from its presigned link; one that cannot be read stays a link only.
 */
import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import type { Job } from "@reelay/client";

/** Larger images are left as links: inline content travels in every later turn of the agent. */
const MAX_INLINE_BYTES = 4 * 1024 * 1024;

type Output = { url?: string | null; bytes?: number; content_type?: string };

export async function imageContent(job: Job): Promise<ContentBlock[]> {
  if (job.status !== "succeeded" || !job.id.startsWith("imgtsk_")) return [];
  const outputs = ((job as { outputs?: Output[] }).outputs ?? []) as Output[];
  const blocks = await Promise.all(outputs.map(readImage));
  return blocks.flat();
}

async function readImage(output: Output): Promise<ContentBlock[]> {
  if (typeof output.url !== "string" || (output.bytes ?? 0) > MAX_INLINE_BYTES) return [];
  try {
    const response = await fetch(output.url);
    if (!response.ok) return [];
    const mimeType = output.content_type ?? response.headers.get("content-type") ?? "image/png";
    const data = Buffer.from(await response.arrayBuffer()).toString("base64");
    return [{ type: "image", data, mimeType }];
  } catch {
    return [];
  }
}
