/** The shapes reelay's API answers with, as this client reads them (see packages/api/src/views.ts). */
import type { Issue } from "@reelay/core";

export interface OutputView {
  bucket: string;
  key: string;
  bytes: number;
  sha256: string;
  contentType: string;
  url: string | null;
  expiresAt: string | null;
}

export interface JobView {
  id: string;
  kind: string;
  status: string;
  model: string;
  mode: string;
  request: object;
  warnings: Issue[];
  source: { type: string; bucket?: string; key?: string; line?: number };
  upstreamTaskId: string | null;
  attempts: number;
  polls: number;
  outputs: OutputView[];
  error: { code: string; message: string } | null;
  history: { status: string; at: string; note?: string }[];
  timings: {
    createdAt: string;
    updatedAt: string;
    submittedAt: string | null;
    upstreamDoneAt: string | null;
    finishedAt: string | null;
    deadlineAt: string | null;
    totalMs: number | null;
  };
}

export interface JobPage {
  data: JobView[];
  next_cursor: string | null;
}

export interface CreatedTask {
  service_task: { task_id: string; status: string };
  task_id: string;
  status: string;
  model: string;
  warnings: Issue[];
}

export interface TaskView {
  service_task: { task_id: string; status: string; output?: { video_url: string } };
  task_id: string;
  status: string;
  video_url?: string;
  output?: { url: string; bytes: number; sha256: string; content_type: string; expires_at: string };
  error: { code: string; message: string } | null;
}

export interface Health {
  ok: boolean;
  s3?: { endpoint: string; bucket: string };
  upstream?: unknown;
}

export interface EventOutput {
  bucket: string;
  key: string;
  bytes: number;
  sha256: string;
  contentType: string;
}

/** A terminal event (`Generation Succeeded` / `Failed` / `Cancelled`). */
export interface TerminalEvent {
  id: string;
  time: string;
  source: string;
  "detail-type": string;
  detail: {
    jobId: string;
    kind: string;
    model: string;
    status: string;
    output: EventOutput | null;
    error: { code: string; message: string } | null;
    timings: { totalMs: number };
  };
}

export const TERMINAL = new Set(["succeeded", "failed", "cancelled"]);
