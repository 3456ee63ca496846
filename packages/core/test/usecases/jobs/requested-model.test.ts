import { describe, expect, it } from "vitest";
import { buildTerminalEvent } from "../../../src/domain/events/types.ts";
import { manifestOf } from "../../../src/domain/jobs/outputs.ts";
import { validate } from "../../../src/domain/validate/validate-request.ts";
import { buildJob } from "../../../src/usecases/jobs/create-job.ts";

const REQUEST = { prompt: "a paper boat in the rain", duration_sec: 8 };

function ended(model: string) {
  const job = buildJob({ validation: validate({ ...REQUEST, model }), source: { type: "api" } });
  return { ...job, status: "succeeded" as const, finishedAt: job.createdAt };
}

describe("the name a job was asked for", () => {
  it("a job made by alias keeps requestedModel in its record and job.json, and requested_model in its event", () => {
    const job = ended("gamma-latest");
    expect(job).toMatchObject({ model: "gamma-3.1", requestedModel: "gamma-latest" });
    expect(manifestOf(job)).toMatchObject({ model: "gamma-3.1", requestedModel: "gamma-latest" });
    expect(buildTerminalEvent(job).detail).toMatchObject({
      model: "gamma-3.1",
      requested_model: "gamma-latest",
    });
  });

  it("a job made by its model's own code records no requestedModel; its event's requested_model is the model", () => {
    const job = ended("gamma-3.1");
    expect(job.requestedModel).toBeUndefined();
    expect(buildTerminalEvent(job).detail.requested_model).toBe("gamma-3.1");
  });
});
