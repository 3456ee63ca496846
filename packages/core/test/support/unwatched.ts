/** What the pipeline always has that a test doesn't watch: no batches, no budgets, no metrics. */
import { NO_BATCHES } from "../../src/usecases/pipeline/pipeline-deps.ts";
import { NO_BUDGETS } from "../../src/usecases/jobs/submit-job.ts";
import { noMetrics } from "../../src/usecases/ports.ts";

export const UNWATCHED = { batches: NO_BATCHES, budgets: NO_BUDGETS, metrics: noMetrics };
