import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalAws, startLocalAws } from "../../core/test/support/local-aws.ts";
import { harness, VALID } from "./support/harness.ts";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(() => aws.stop());

describe("X-Reelay-Priority on the contract's create routes", () => {
  it("high is recorded on the job and shown as its priority; no header means normal", async () => {
    const h = await harness(aws);
    const high = (await (await h.post(VALID, { "X-Reelay-Priority": "High" })).json()) as {
      task_id: string;
    };
    const plain = (await (await h.post(VALID)).json()) as { task_id: string };
    expect((await h.jobs.require(high.task_id)).priority).toBe("high");
    const views = await Promise.all(
      [high.task_id, plain.task_id].map(
        async (id) => (await (await h.get(`/v1/jobs/${id}`)).json()) as { priority: string },
      ),
    );
    expect(views.map((view) => view.priority)).toEqual(["high", "normal"]);
  });

  it("an unknown priority is 400 invalid_priority naming the header, and no job is made", async () => {
    const h = await harness(aws);
    const response = await h.post(VALID, { "X-Reelay-Priority": "urgent" });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; path: string } };
    expect(body.error).toMatchObject({ code: "invalid_priority", path: "X-Reelay-Priority" });
    expect((await h.jobs.list()).jobs).toEqual([]);
    expect(h.starter.started).toEqual([]);
  });
});
