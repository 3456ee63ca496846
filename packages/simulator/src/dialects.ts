import type { DialectName, SimTaskStatus } from "./types.ts";

/** What every dialect needs to describe a video task at one moment. */
export interface TaskView {
  id: string;
  status: SimTaskStatus;
  videoUrl: string | undefined;
  failReason: string | undefined;
}

const FAIL_CODE = "generation_failed";

/**
 * The same task written the ways real upstreams write it: where the id, the status and the URL sit,
 * what the statuses are called and how a failure looks. Clients must cope with all of them.
 */
export function renderVideoTask(dialect: DialectName, t: TaskView): Record<string, unknown> {
  const reason = t.failReason ?? "Generation failed";
  switch (dialect) {
    case "standard": {
      const status = t.status;
      const serviceTask: Record<string, unknown> = { task_id: t.id, status };
      if (t.status === "succeeded") serviceTask.output = { video_url: t.videoUrl };
      if (t.status === "failed") serviceTask.error = { code: FAIL_CODE, message: reason };
      return { service_task: serviceTask, task_id: t.id, status };
    }
    case "flat": {
      const status = {
        queued: "PENDING",
        running: "PROCESSING",
        succeeded: "SUCCESS",
        failed: "FAILED",
      }[t.status];
      if (t.status === "succeeded") return { task_id: t.id, status, video_url: t.videoUrl };
      if (t.status === "failed") return { task_id: t.id, status, fail_reason: reason };
      return { task_id: t.id, status };
    }
    case "nested_output": {
      const status = {
        queued: "in_progress",
        running: "in_progress",
        succeeded: "completed",
        failed: "error",
      }[t.status];
      const body: Record<string, unknown> = { service_task: { task_id: t.id, status } };
      if (t.status === "succeeded") body.data = { outputs: [{ type: "video", url: t.videoUrl }] };
      else body.data = { outputs: [] };
      if (t.status === "failed") body.error = { message: reason };
      return body;
    }
    case "url_only": {
      // The status never announces success: only the URL appearing tells the client it is done.
      if (t.status === "failed") return { task_id: t.id, status: "cancelled", message: reason };
      const videos = t.status === "succeeded" ? [{ url: t.videoUrl }] : [];
      return { task_id: t.id, status: "processing", result: { videos } };
    }
    case "string_error": {
      if (t.status === "succeeded")
        return { task_id: t.id, status: "Completed", output: t.videoUrl };
      if (t.status === "failed") return { task_id: t.id, status: "Error", error: reason };
      return { task_id: t.id, status: "Running" };
    }
  }
}

export function isDialect(value: unknown): value is DialectName {
  return (
    value === "standard" ||
    value === "flat" ||
    value === "nested_output" ||
    value === "url_only" ||
    value === "string_error"
  );
}
