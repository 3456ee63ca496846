import { expect } from "vitest";
import { ReelayError } from "../../../src/domain/errors.ts";

/** The ReelayError a promise rejects with; fails the test if it resolves or rejects with anything else. */
export async function caught(promise: Promise<unknown>): Promise<ReelayError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ReelayError);
    return error as ReelayError;
  }
  throw new Error("expected a rejection");
}
