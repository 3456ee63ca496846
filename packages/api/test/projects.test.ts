/**
 * Projects: what a key makes belongs to its project; every key of the project sees it, and to a
 * key of another project it is 404 (never 403) on every route that names it, and absent from
 * every listing. A key made without a project is alone in its own, as every key was before.
 */
import { describe, expect, it } from "vitest";
import { newJobId } from "@reelay/core/domain";
import { call, newKey, sharedFullApp } from "./support/full-app.ts";
import { API_KEY, VALID } from "./support/harness.ts";

const app = sharedFullApp();

/** Two keys of project `p` (a writer and a reader) and one of `q`, each with every scope they need here. */
async function teams(p: string, q: string) {
  const writer = await newKey(app(), { project: p, scopes: ["read", "write", "webhooks"] });
  const reader = await newKey(app(), { project: p, scopes: ["read", "webhooks"] });
  const stranger = await newKey(app(), { project: q, scopes: ["read", "write", "webhooks"] });
  return { writer, reader, stranger };
}

describe("projects", () => {
  it("a read key of P sees the job P's write key made; a key of Q gets 404 job_not_found for it on every route, and never lists it", async () => {
    const { writer, reader, stranger } = await teams("alpha", "beta");
    const made = await call(app(), "POST", "/v1/video/generations", writer.key, VALID);
    const id = made.body.task_id as string;
    expect((await call(app(), "GET", `/v1/jobs/${id}`, reader.key)).status).toBe(200);
    expect((await call(app(), "GET", `/v1/video/tasks/${id}`, reader.key)).status).toBe(200);
    const listed = await call(app(), "GET", "/v1/jobs?limit=100", reader.key);
    expect(listed.body.data.map((job: { id: string }) => job.id)).toEqual([id]);

    for (const [method, path] of [
      ["GET", `/v1/jobs/${id}`],
      ["GET", `/v1/video/tasks/${id}`],
      ["POST", `/v1/jobs/${id}/cancel`],
      ["POST", `/v1/jobs/${id}/retry`],
    ] as const) {
      const answer = await call(app(), method, path, stranger.key);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error.code).toBe("job_not_found");
    }
    const theirs = await call(app(), "GET", "/v1/jobs?limit=100", stranger.key);
    expect(theirs.body.data).toEqual([]);
    const usage = await call(app(), "GET", "/v1/usage?group_by=key", stranger.key);
    expect(usage.status).toBe(200);
    expect(JSON.stringify(usage.body)).not.toContain(writer.id);
    expect((await call(app(), "GET", `/v1/jobs/${id}`, API_KEY)).status).toBe(200);
  });

  it("batches: every key of the project sees them, another project's key gets 404 and an empty listing", async () => {
    const { writer, reader, stranger } = await teams("gamma", "delta");
    const made = await call(app(), "POST", "/v1/batches", writer.key, { requests: [VALID] });
    const id = made.body.id as string;
    expect((await call(app(), "GET", `/v1/batches/${id}`, reader.key)).status).toBe(200);
    const listed = await call(app(), "GET", "/v1/batches", reader.key);
    expect(listed.body.data.map((b: { id: string }) => b.id)).toContain(id);
    for (const [method, path] of [
      ["GET", `/v1/batches/${id}`],
      ["GET", `/v1/batches/${id}/results`],
      ["POST", `/v1/batches/${id}/cancel`],
    ] as const) {
      const answer = await call(app(), method, path, stranger.key);
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    expect((await call(app(), "GET", "/v1/batches", stranger.key)).body.data).toEqual([]);
  });

  it("webhook subscribers belong to the project: another of its keys lists and rotates one; another project's key gets 404 and an empty list", async () => {
    const { writer, reader, stranger } = await teams("epsilon", "zeta");
    const made = await call(app(), "POST", "/v1/webhooks", writer.key, {
      url: "https://example.com/hook",
    });
    expect(made.status).toBe(201);
    expect(made.body.project).toBe("epsilon");
    const listed = await call(app(), "GET", "/v1/webhooks", reader.key);
    expect(listed.body.data.map((s: { id: string }) => s.id)).toEqual([made.body.id]);
    expect(
      (await call(app(), "POST", `/v1/webhooks/${made.body.id}/rotate`, reader.key)).status,
    ).toBe(200);
    expect((await call(app(), "GET", "/v1/webhooks", stranger.key)).body.data).toEqual([]);
    const gone = await call(app(), "DELETE", `/v1/webhooks/${made.body.id}`, stranger.key);
    expect(gone.status).toBe(404);
  });

  it("a key made without a project is alone in one named by its id, and sees only its own jobs", async () => {
    const solo = await newKey(app());
    expect(solo.project).toBe(solo.id);
    const other = await newKey(app());
    const made = await call(app(), "POST", "/v1/video/generations", other.key, VALID);
    expect((await call(app(), "GET", `/v1/jobs/${made.body.task_id}`, solo.key)).status).toBe(404);
    expect((await call(app(), "GET", "/v1/jobs", solo.key)).body.data).toEqual([]);
  });

  it("a job stored before projects (its key id only) is in its key's own project: its key sees and lists it, another key gets 404", async () => {
    const solo = await newKey(app());
    const made = await call(app(), "POST", "/v1/video/generations", solo.key, VALID);
    const jobs = app().wiring.pipeline.jobs;
    const stored = await jobs.get(made.body.task_id);
    const legacy = {
      ...stored!,
      id: newJobId("video"),
      source: { type: "api" as const, apiKeyId: solo.id },
    };
    await jobs.create(legacy);
    expect((await call(app(), "GET", `/v1/jobs/${legacy.id}`, solo.key)).status).toBe(200);
    const listed = await call(app(), "GET", "/v1/jobs?limit=100", solo.key);
    expect(listed.body.data.map((job: { id: string }) => job.id).sort()).toEqual(
      [made.body.task_id, legacy.id].sort(),
    );
    const other = await newKey(app(), { project: "eta" });
    expect((await call(app(), "GET", `/v1/jobs/${legacy.id}`, other.key)).status).toBe(404);
  });

  it("a project name is lower-case letters, digits and dashes, never `local` nor a key id's shape: else 400 and no key", async () => {
    for (const project of ["local", "key_01ARZ3NDEKTSV4RRFFQ69G5FAV", "Team A", "", 7]) {
      const answer = await call(app(), "POST", "/v1/keys", API_KEY, { project });
      expect(answer.status, String(project)).toBe(400);
      expect(answer.body.error.path).toBe("project");
    }
  });
});
