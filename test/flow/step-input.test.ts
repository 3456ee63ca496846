/** The Lambda step adapter refuses an input without a job id before touching AWS or the upstream. */
import { describe, expect, it } from "vitest";
import { runStep } from "../../functions/support/step.ts";

describe("runStep", () => {
  it.each([undefined, null, {}, { jobId: "" }, { jobId: 7 }])(
    "rejects %j as a permanent invalid_flow_state ReelayError",
    async (input) => {
      await expect(runStep("poll", input)).rejects.toMatchObject({
        name: "ReelayError",
        code: "invalid_flow_state",
        path: "jobId",
      });
    },
  );
});
