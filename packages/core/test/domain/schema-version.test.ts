/** What a stored version says, and what this release refuses to read (domain/schema-version.ts). */
import { describe, expect, it } from "vitest";
import {
  OBJECT_VERSION_FIELD,
  readableVersion,
  SCHEMA_VERSION,
} from "../../src/domain/schema-version.ts";

describe("readableVersion", () => {
  it("no version is version 1 (0.1.0's shape); the previous and the current version are themselves", () => {
    expect(readableVersion(undefined, "x")).toBe(1);
    expect(readableVersion(null, "x")).toBe(1);
    expect(readableVersion(SCHEMA_VERSION - 1, "x")).toBe(SCHEMA_VERSION - 1);
    expect(readableVersion(SCHEMA_VERSION, "x")).toBe(SCHEMA_VERSION);
  });

  it.each([SCHEMA_VERSION + 1, 0, 1.5, "2", true])(
    "%j is refused with schema_version_unsupported, naming the object and its field, not its content",
    (value) => {
      expect(() =>
        readableVersion(value, "The file rejected/a.json.error.json", OBJECT_VERSION_FIELD),
      ).toThrow(
        expect.objectContaining({
          name: "ReelayError",
          code: "schema_version_unsupported",
          path: "schema_version",
          message: expect.stringMatching(
            /^The file rejected\/a\.json\.error\.json has schema version /,
          ),
        }),
      );
    },
  );
});
