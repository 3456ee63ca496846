/** The shapes reelay's API answers with: the API's own view types, plus the few it leaves unnamed. */
import type { Issue } from "@reelay/core";
import type { JobView } from "@reelay/api";

export type { JobView, TaskView } from "@reelay/api";
export type { TerminalEvent } from "@reelay/core/domain";

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

export interface Health {
  ok: boolean;
  s3?: { endpoint: string; bucket: string };
  upstream?: unknown;
}
