/**
 * One finished output of a simulator started with zero generation time: a task created over HTTP
 * with `request`, and the URL its output is served at (what the Download step copies from).
 */
import type { Simulator } from "@reelay/simulator";

export async function simulatorOutputUrl(
  sim: Simulator,
  apiKey: string,
  request: Record<string, unknown>,
): Promise<string> {
  const created = await fetch(`${sim.url}/video/generations`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(request),
  });
  const { task_id: taskId } = (await created.json()) as { task_id: string };
  const url = sim.task(taskId)?.outputUrls[0];
  if (url === undefined) throw new Error(`simulator task ${taskId} has no output`);
  return url;
}
