import { describe, expect, it } from "vitest";
import { parseDirectives, parseFaultHeader } from "../src/index.ts";

describe("fault header and prompt directives", () => {
  it("parses a header list with parameters, skipping unknown fault names", () => {
    expect(
      parseFaultHeader(
        "rate_limit;times=2;retry_after=1, server_error;status=500, bogus, reset;after",
      ),
    ).toEqual([
      { fault: "rate_limit", times: 2, retryAfterS: 1 },
      { fault: "server_error", status: 500 },
      { fault: "reset", after: true },
    ]);
  });

  it("parses every directive form of the interface", () => {
    const prompt =
      "a cat [[sim:task_fail]] [[sim:never_finish]] [[sim:download_error times=1]] [[sim:truncate times=1]] [[sim:generation_ms=500]] [[sim:dialect=flat]]";
    expect(parseDirectives(prompt)).toEqual({
      faults: [
        { fault: "task_fail" },
        { fault: "never_finish" },
        { fault: "download_error", times: 1 },
        { fault: "truncate", times: 1 },
      ],
      generationMs: 500,
      dialect: "flat",
    });
  });

  it("takes a quoted task_fail reason and ignores unknown directives and bad values", () => {
    expect(
      parseDirectives(
        'x [[sim:task_fail reason="No GPU"]] [[sim:wat]] [[sim:dialect=martian]] [[sim:generation_ms=abc]]',
      ),
    ).toEqual({
      faults: [{ fault: "task_fail", reason: "No GPU" }],
    });
  });

  it("reads model= in a header rule and in a directive, and ignores an empty one", () => {
    expect(parseFaultHeader("task_fail;model=gamma-3.1, task_fail;model=")).toEqual([
      { fault: "task_fail", model: "gamma-3.1" },
      { fault: "task_fail" },
    ]);
    expect(parseDirectives("x [[sim:task_fail model=alpha-2.7 times=1]]").faults).toEqual([
      { fault: "task_fail", model: "alpha-2.7", times: 1 },
    ]);
  });
});
