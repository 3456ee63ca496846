/** A line about a job carries what its record says, and nothing else of it. */
import { describe, expect, it } from "vitest";
import { jobContext } from "../../../src/domain/jobs/log-context.ts";

describe("jobContext", () => {
  it("names the job, its batch, model, upstream task and the API key's id, never more of the record", () => {
    expect(
      jobContext({
        id: "vidtsk_1",
        model: "gamma-3.1",
        batchId: "bat_1",
        upstreamTaskId: "up_1",
        source: { type: "api", apiKeyId: "key_1" },
      }),
    ).toEqual({
      jobId: "vidtsk_1",
      batchId: "bat_1",
      model: "gamma-3.1",
      upstreamTaskId: "up_1",
      keyId: "key_1",
    });
    expect(jobContext({ id: "vidtsk_2" })).toEqual({ jobId: "vidtsk_2" });
  });
});
