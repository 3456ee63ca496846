import { ReelayError, shownInput } from "../errors.ts";

/** 404 for a batch that is not there, or not the caller's to see: the same answer for both. */
export function batchNotFound(id: string): ReelayError {
  return new ReelayError("batch_not_found", `No batch ${shownInput(id)} here.`, {
    status: 404,
    path: "id",
  });
}
