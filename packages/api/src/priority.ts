/** X-Reelay-Priority on the contract's create routes: the job's place among the caller's own. */
import { isPriority, PRIORITIES, type Priority, ReelayError } from "@reelay/core/domain";

export const PRIORITY_HEADER = "X-Reelay-Priority";

export function readPriority(value: string | undefined): Priority | undefined {
  if (value === undefined) return undefined;
  const priority = value.trim().toLowerCase();
  if (isPriority(priority)) return priority;
  throw new ReelayError(
    "invalid_priority",
    `${PRIORITY_HEADER} must be one of ${PRIORITIES.join(", ")}.`,
    { status: 400, path: PRIORITY_HEADER },
  );
}
