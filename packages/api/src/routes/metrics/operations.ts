/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import { ADMIN_ONLY, UNAUTHORIZED } from "../../openapi/examples.ts";
import type { Operation } from "../../openapi/operation.ts";

export const METRICS_OPERATIONS: Record<string, Operation> = {
  "GET /metrics": {
    summary: "Prometheus metrics (admin key only; local stack)",
    description:
      "The `reelay_` metrics in Prometheus text: jobs created and ended by model and error code, detection delay and end-to-end time, upstream requests, 429s and errors, the admission queue and slots (read at the scrape), each upstream account's circuit, bytes copied, webhook deliveries and budget refusals. Upstream counters and slots also come with an `account` label, one series per upstream account; the series without `account` is the whole deployment's. Prometheus sends the admin key as its bearer token. On AWS the same metrics go to CloudWatch and this route does not exist.",
    tag: "service",
    auth: true,
    response: {
      status: 200,
      contentType: "text/plain",
      example:
        '# HELP reelay_jobs_succeeded_total Jobs that ended succeeded, by model.\n# TYPE reelay_jobs_succeeded_total counter\nreelay_jobs_succeeded_total{model="gamma-3.1"} 12\n',
      description: "Prometheus text format 0.0.4.",
    },
    errors: [UNAUTHORIZED, ADMIN_ONLY],
  },
};
