/**
 * The image task as the API shows it: the contract's task shape, plus on success every stored
 * image (presigned S3 copy, size, checksum) as `images`, and the same URLs OpenAI-style as `data`.
 */
import type { Job, JobError } from "@reelay/core/domain";
import { jobView, type Presigner } from "./views.ts";

interface ImageView {
  url: string;
  bytes: number;
  sha256: string;
  content_type: string;
  expires_at: string;
}

export interface ImageTaskView {
  service_task: { task_id: string; status: string };
  task_id: string;
  status: string;
  model: string;
  images?: ImageView[];
  data?: { url: string }[];
  error: JobError | null;
}

export async function imageTaskView(job: Job, signer: Presigner): Promise<ImageTaskView> {
  const base = { task_id: job.id, status: job.status };
  const error =
    job.status === "failed" || job.status === "cancelled"
      ? (job.error ?? { code: job.status, message: `The job is ${job.status}.` })
      : null;
  const view = { service_task: { ...base }, ...base, model: job.model, error };
  // Like the video task: no URL before success, since a contract client stops polling at the first one.
  if (job.status !== "succeeded") return view;
  const images: ImageView[] = [];
  for (const output of (await jobView(job, signer)).outputs) {
    if (output.url === null || output.expiresAt === null) continue;
    images.push({
      url: output.url,
      bytes: output.bytes,
      sha256: output.sha256,
      content_type: output.contentType,
      expires_at: output.expiresAt,
    });
  }
  return { ...view, images, data: images.map((image) => ({ url: image.url })) };
}
